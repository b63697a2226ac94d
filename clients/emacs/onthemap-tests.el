;;; onthemap-tests.el --- ERT tests of onthemap.el against a real daemon  -*- lexical-binding: t; -*-

;;; Commentary:

;; Run by Tests/OnTheMapEditorTests (make test):
;;   emacs --batch -Q -l onthemap-tests.el --eval "(ert-run-tests-batch-and-exit '(not (tag root)))"
;; and, in a Swift test enabled only as root (Swift Testing reports it as
;; skipped, with the reason, for anyone else), the tests tagged `root' with
;; the selector (tag root).
;; The environment names a real onthemapd (logged out) in front of a real
;; onthemap-server, the demo account, the `onthemap' CLI (a second client),
;; a socket nobody listens on, a daemon stopped with SIGSTOP (it accepts and
;; never answers), and a control directory: writing "restart" there makes
;; the Swift test restart the daemon.  The tests are numbered: each starts
;; where the previous one left the account.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'onthemap)

(defun onthemap-tests--env (name)
  "The environment variable NAME, which the tests need."
  (let ((value (getenv name)))
    (if (and value (not (string-empty-p value))) value (error "The test needs $%s" name))))

(defvar onthemap-tests--messages nil
  "Every message shown, newest first.")

(advice-add 'message :filter-return
            (lambda (text) (when (stringp text) (push text onthemap-tests--messages)) text)
            '((name . onthemap-tests-record)))

(defvar onthemap-tests--opened nil
  "Links opened, newest first.")

(defvar onthemap-tests--statuses nil
  "Mode-line texts seen, newest first.")

(add-hook 'onthemap-status-hook (lambda () (push (onthemap-status-string) onthemap-tests--statuses)))

(setq onthemap-timeout 60            ; a busy test machine; nothing should come near it
      onthemap-reconnect-delay 0.2
      onthemap-browse-function (lambda (url) (push url onthemap-tests--opened)))

(defun onthemap-tests--wait (what condition &optional seconds)
  "Let the event loop run until CONDITION returns non-nil; fail after SECONDS.
WHAT says what was awaited."
  (let ((deadline (+ (float-time) (or seconds 30))))
    (while (and (not (funcall condition)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall condition)
        (ert-fail (format "gave up waiting for %s" (if (functionp what) (funcall what) what))))))

(defun onthemap-tests--message-since (mark text &optional seconds)
  "Wait for a message containing TEXT among those after MARK (a count)."
  (onthemap-tests--wait
   (lambda () (format "a message with %S; got %S" text onthemap-tests--messages))
   (lambda () (cl-some (lambda (m) (string-search text m))
                       (butlast onthemap-tests--messages mark)))
   seconds)
  (cl-find-if (lambda (m) (string-search text m)) onthemap-tests--messages))

(defun onthemap-tests--header ()
  "The current buffer's header line as shown.
Evaluated here: `format-mode-line' gives \"\" in batch mode."
  (let ((format header-line-format))
    (if (eq (car-safe format) :eval) (eval (cadr format) t) format)))

(defun onthemap-tests--cli-json (&rest args)
  "Run the CLI with ARGS and --json; return its output parsed."
  (with-temp-buffer
    (unless (eql 0 (apply #'call-process (onthemap-tests--env "ONTHEMAP_TEST_CLI") nil t nil
                          (append args '("--json"))))
      (ert-fail (format "onthemap %S failed: %s" args (buffer-string))))
    (goto-char (point-min))
    (json-parse-buffer :object-type 'plist :null-object nil :false-object :json-false)))

(defun onthemap-tests--mode-line-is (text &optional seconds)
  "Wait until the mode line's status is TEXT."
  (onthemap-tests--wait (lambda () (format "%S in the mode line, got %S" text (onthemap-status-string)))
                        (lambda () (equal (onthemap-status-string) text))
                        seconds))

(defun onthemap-tests--password-nowhere (password)
  "Fail if PASSWORD is in any buffer, history or message."
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (save-excursion
        (goto-char (point-min))
        (should-not (search-forward password nil t)))))
  (dolist (history '(minibuffer-history command-history extended-command-history read-expression-history))
    (should-not (cl-some (lambda (entry) (string-search password (format "%S" entry))) (symbol-value history))))
  (should-not (cl-some (lambda (m) (string-search password m)) onthemap-tests--messages)))

(defmacro onthemap-tests--answering (answers &rest body)
  "Run BODY with the minibuffer answering ANSWERS in order, as a user would.
Each answer is a function called with the prompt (and the
collection, for `completing-read') returning the answer."
  (declare (indent 1))
  `(let ((queue ,answers))
     (cl-flet ((next (prompt &optional collection)
                 (let ((answer (pop queue)))
                   (unless answer (ert-fail (format "unexpected prompt %S" prompt)))
                   (funcall answer prompt collection))))
       (cl-letf (((symbol-function 'read-string) (lambda (prompt &rest _) (next prompt)))
                 ((symbol-function 'completing-read)
                  (lambda (prompt collection &rest _) (next prompt collection)))
                 ((symbol-function 'y-or-n-p) (lambda (prompt) (next prompt))))
         ,@body))))

(defvar onthemap-tests--password (onthemap-tests--env "ONTHEMAP_TEST_PASSWORD"))

;;;; Against the real daemon

(ert-deftest onthemap-test-01-mode-line-logged-out ()
  (onthemap-status-mode 1)
  (onthemap-tests--mode-line-is " 📍 logged out"))

(ert-deftest onthemap-test-02-login-keeps-the-password-hidden ()
  (let ((mark (length onthemap-tests--messages))
        typed prompt)
    (cl-letf (((symbol-function 'read-passwd)
               (lambda (text &rest _) (setq prompt text typed (copy-sequence onthemap-tests--password)))))
      (onthemap-login (onthemap-tests--env "ONTHEMAP_TEST_EMAIL")))
    (should (equal prompt "Password for demo@onthemap.example: "))
    ;; Wiped as soon as it was sent.
    (should (string-match-p "\\`\0+\\'" typed))
    (onthemap-tests--message-since mark "logged in as Ada" 60)
    (onthemap-tests--password-nowhere onthemap-tests--password)))

(ert-deftest onthemap-test-03-mode-line-count ()
  (onthemap-tests--mode-line-is " 📍 100"))

(ert-deftest onthemap-test-04-list-sort-and-open ()
  (let* ((expected (append (onthemap-tests--cli-json "students" "--limit" "100") nil))
         (buffer (onthemap)))
    (with-current-buffer buffer
      (onthemap-tests--wait "the students" (lambda () (> onthemap--generation 0)))
      (should (derived-mode-p 'tabulated-list-mode))
      (should (equal (mapcar #'car tabulated-list-format) '("Name" "Place" "Link" "Updated")))
      (should (string-match-p "100 of [0-9]+ students, newest first" (onthemap-tests--header)))
      (should (equal (mapcar (lambda (e) (aref (cadr e) 0)) tabulated-list-entries)
                     (mapcar (lambda (s) (concat (plist-get s :firstName) " " (plist-get s :lastName))) expected)))
      ;; The first line holds the column titles; RET on the third student opens its link.
      (goto-char (point-min))
      (should (string-match-p "\\` *Name +Place +Link +Updated *$" (thing-at-point 'line t)))
      (forward-line 3)
      (call-interactively (key-binding (kbd "RET")))
      (should (equal (car onthemap-tests--opened) (plist-get (nth 2 expected) :mediaURL)))
      ;; Sorted by name: the lines follow.
      (goto-char (point-min))
      (tabulated-list-sort 0)
      (let ((names (save-excursion
                     (goto-char (point-min))
                     (forward-line 1)
                     (cl-loop until (eobp)
                              collect (aref (tabulated-list-get-entry) 0)
                              do (forward-line 1)))))
        (should (= (length names) 100))
        (should (equal names (sort (copy-sequence names) #'string<))))
      ;; The header line says so.
      (should (string-match-p "100 of [0-9]+ students, sorted by Name · refreshed" (onthemap-tests--header))))))

(ert-deftest onthemap-test-05-g-refreshes ()
  (with-current-buffer "*OnTheMap*"
    (let ((before (plist-get (plist-get (onthemap-tests--cli-json "status") :students) :refreshedAt))
          (generation onthemap--generation))
      (sleep-for 1.1)                   ; refreshedAt is to the millisecond
      (call-interactively (key-binding (kbd "g")))
      (onthemap-tests--wait "the refreshed list" (lambda () (> onthemap--generation generation)))
      (should (string< before (plist-get (plist-get (onthemap-tests--cli-json "status") :students) :refreshedAt))))
    (kill-buffer)))

(ert-deftest onthemap-test-06-near ()
  (with-current-buffer (onthemap-near "Berlin, Germany" 2000)
    (onthemap-tests--wait "the near list" (lambda () (> onthemap--generation 0)))
    (should (string-match-p "nearest to Berlin.*within 2000 km" (onthemap-tests--header)))
    (should (equal (mapcar #'car tabulated-list-format) '("Name" "Place" "Km" "Link" "Updated")))
    (let ((distances (mapcar (lambda (e) (string-to-number (aref (cadr e) 2))) tabulated-list-entries)))
      (should (> (length distances) 0))
      (should (equal distances (sort (copy-sequence distances) #'<)))
      (should (<= (car (last distances)) 2000)))
    ;; Each distance is the daemon's distanceKm, as the CLI gets it for the same query.
    (let ((expected (append (onthemap-tests--cli-json "students" "--near" "Berlin, Germany" "--radius" "2000"
                                                      "--limit" "100")
                            nil)))
      (should (equal (mapcar (lambda (e) (plist-get (car e) :objectId)) tabulated-list-entries)
                     (mapcar (lambda (s) (plist-get s :objectId)) expected)))
      (should (equal (mapcar (lambda (e) (aref (cadr e) 2)) tabulated-list-entries)
                     (mapcar (lambda (s) (number-to-string (floor (+ (plist-get s :distanceKm) 0.5)))) expected))))
    (kill-buffer)))

(ert-deftest onthemap-test-06a-near-shows-the-daemons-distance ()
  ;; Distances no sphere gives for these coordinates: only the daemon's value can show them.
  (with-temp-buffer
    (setq onthemap--near '(52.52 13.405 "Berlin" 2000))
    (should (equal (mapcar (lambda (e) (aref (cadr e) 2))
                           (onthemap--entries
                            (vector (list :firstName "Ada" :mapString "Berlin" :latitude 52.52 :longitude 13.405
                                          :distanceKm 1234.4)
                                    (list :firstName "Alan" :mapString "Paris" :latitude 48.8566 :longitude 2.3522
                                          :distanceKm 7.6)
                                    ;; A half rounds up, as the CLI rounds it.
                                    (list :firstName "Kim" :mapString "Hamburg" :latitude 53.55 :longitude 9.99
                                          :distanceKm 252.5)
                                    (list :firstName "Old" :mapString "Oslo" :latitude 59.91 :longitude 10.75))))
                   '("1234" "8" "253" "")))))

(ert-deftest onthemap-test-07-post ()
  (let ((mark (length onthemap-tests--messages))
        (prompts nil))
    (onthemap-tests--answering
        (list (lambda (prompt collection)
                (push prompt prompts)
                (should (string-prefix-p "Munich, Bavaria, Germany" (caar collection)))
                (caar collection))
              (lambda (prompt _) (push prompt prompts) "https://ada.example/emacs"))
      (onthemap-post "Munich")
      (onthemap-tests--message-since mark "posted your pin at Munich" 60))
    (should (equal (reverse prompts) '("Which Munich (default Munich, Bavaria, Germany (locality)): "
                                       "Link (http or https): ")))
    (let ((pin (onthemap-tests--cli-json "mypin")))
      (should (equal (plist-get pin :mapString) "Munich"))
      (should (equal (plist-get pin :mediaURL) "https://ada.example/emacs")))))

(ert-deftest onthemap-test-06b-search ()
  (let ((expected (append (onthemap-tests--cli-json "students" "--search" "berlin germany" "--limit" "100") nil))
        (buffer (onthemap-search "berlin germany")))
    (should expected)
    (with-current-buffer buffer
      (onthemap-tests--wait "the search list" (lambda () (> onthemap--generation 0)))
      (should (string-match-p "students matching \"berlin germany\", newest first" (onthemap-tests--header)))
      (should (equal (mapcar (lambda (e) (aref (cadr e) 0)) tabulated-list-entries)
                     (mapcar (lambda (s) (concat (plist-get s :firstName) " " (plist-get s :lastName))) expected)))
      (kill-buffer))))

(ert-deftest onthemap-test-07b-typed-links ()
  (should (equal (onthemap--typed-link " example.com/x ") "https://example.com/x"))
  (should (equal (onthemap--typed-link "http://example.com") "http://example.com"))
  (should (equal (onthemap--typed-link "https://a.example/?u=https://b.example") "https://a.example/?u=https://b.example"))
  (should (null (onthemap--typed-link "")))
  (should (null (onthemap--typed-link nil))))

(ert-deftest onthemap-test-07d-move-question ()
  (should (equal (onthemap--move-question "Munich" "Berlin") "Move your pin from Munich to Berlin? "))
  (should (equal (onthemap--move-question "Munich" "Munich") "Replace your pin at Munich (new link)? ")))

(ert-deftest onthemap-test-07c-a-browser-that-fails-is-reported ()
  (let ((onthemap-browse-function (lambda (_) (error "No usable browser found")))
        (mark (length onthemap-tests--messages)))
    (onthemap-open-link "https://ada.example/x")
    (onthemap-tests--message-since mark "could not open https://ada.example/x: No usable browser found" 5)))

(ert-deftest onthemap-test-08-post-asks-before-moving ()
  (let ((mark (length onthemap-tests--messages))
        question)
    (onthemap-tests--answering
        (list (lambda (_ collection) (caar collection))
              (lambda (_ _) "https://ada.example/berlin")
              (lambda (prompt _) (setq question prompt) nil))
      (onthemap-post "Berlin")
      (onthemap-tests--message-since mark "your pin stays at Munich" 60))
    (should (equal question "Move your pin from Munich to Berlin? "))
    (should (equal (plist-get (onthemap-tests--cli-json "mypin") :mapString) "Munich"))
    (setq mark (length onthemap-tests--messages))
    (onthemap-tests--answering
        (list (lambda (_ collection) (caar collection))
              (lambda (_ _) "https://ada.example/berlin")
              (lambda (_ _) t))
      (onthemap-post "Berlin")
      (onthemap-tests--message-since mark "moved your pin to Berlin" 60))
    (should (equal (plist-get (onthemap-tests--cli-json "mypin") :mapString) "Berlin"))))

(ert-deftest onthemap-test-08b-empty-place-changes-only-the-link ()
  (let ((mark (length onthemap-tests--messages))
        (before (onthemap-tests--cli-json "mypin"))
        link-prompt question)
    (onthemap-tests--answering
        (list (lambda (prompt _) (setq link-prompt prompt) "ada.example/only-the-link")
              (lambda (prompt _) (setq question prompt) t))
      (onthemap-post "")
      (onthemap-tests--message-since mark (concat "moved your pin to " (plist-get before :mapString)) 60))
    (should (equal link-prompt (format "Link (http or https) (default %s): " (plist-get before :mediaURL))))
    (should (equal question (format "Replace your pin at %s (new link)? " (plist-get before :mapString))))
    (let ((pin (onthemap-tests--cli-json "mypin")))
      (should (equal (list (plist-get pin :mapString) (plist-get pin :latitude) (plist-get pin :longitude))
                     (list (plist-get before :mapString) (plist-get before :latitude) (plist-get before :longitude))))
      (should (equal (plist-get pin :mediaURL) "https://ada.example/only-the-link")))))

(ert-deftest onthemap-test-09-mode-line-follows-another-client ()
  (onthemap-tests--mode-line-is " 📍 100 · Berlin" 60)
  ;; The CLI, a separate client, moves the pin; Emacs asks nothing meanwhile.
  (start-process "cli" nil (onthemap-tests--env "ONTHEMAP_TEST_CLI")
                 "post" "Paris" "https://ada.example/paris" "--yes" "--overwrite")
  (onthemap-tests--mode-line-is " 📍 100 · Paris" 60))

(defun onthemap-tests--restart-daemon ()
  "Restart the daemon (the Swift test does it) and wait until it is up.
The mode line must have shown it offline meanwhile."
  (let ((control (onthemap-tests--env "ONTHEMAP_TEST_CONTROL")))
    (when (file-exists-p (expand-file-name "restarted" control))
      (delete-file (expand-file-name "restarted" control)))
    (setq onthemap-tests--statuses nil)
    (write-region "" nil (expand-file-name "restart" control))
    (onthemap-tests--wait (lambda () (format "offline while the daemon restarts; seen %S" onthemap-tests--statuses))
                          (lambda () (member " 📍 offline" onthemap-tests--statuses))
                          60)
    (onthemap-tests--wait "the restart" (lambda () (file-exists-p (expand-file-name "restarted" control))) 60)))

(ert-deftest onthemap-test-10-mode-line-survives-a-restart ()
  (onthemap-tests--restart-daemon)
  (onthemap-tests--mode-line-is " 📍 100 · Paris" 60))

(ert-deftest onthemap-test-10a-mode-line-sees-a-daemon-start-at-once ()
  (unwind-protect
      ;; Ten minutes between tries: only the look for a new socket file can bring the mode
      ;; line back within the wait.
      (let ((onthemap-reconnect-delay 600))
        (onthemap-status-mode -1)
        (onthemap-status-mode 1)
        (onthemap-tests--mode-line-is " 📍 100 · Paris" 60)
        (onthemap-tests--restart-daemon)
        (onthemap-tests--mode-line-is " 📍 100 · Paris" 15))
    ;; The tests after this one get the short delay back, whatever happened here.
    (onthemap-status-mode -1)
    (onthemap-status-mode 1)))

(ert-deftest onthemap-test-11-map ()
  (let ((mark (length onthemap-tests--messages))
        methods)
    (onthemap-request 'rpc.discover nil
                      (lambda (result) (setq methods (mapcar (lambda (m) (plist-get m :name)) (plist-get result :methods)))))
    (onthemap-tests--wait "rpc.discover" (lambda () methods))
    (with-current-buffer (onthemap-map)
      (if (member "map" methods)
          (progn
            (onthemap-tests--wait "the map" (lambda () onthemap--map-pins))
            (should (text-property-any (point-min) (point-max) 'face 'onthemap-land)))
        (onthemap-tests--message-since mark "cannot draw maps yet")
        (should (string-search "has no `map' method" (buffer-string))))
      (kill-buffer))))

(ert-deftest onthemap-test-12-logout ()
  (let ((mark (length onthemap-tests--messages)))
    (onthemap-logout)
    (onthemap-tests--message-since mark "OnTheMap: logged out")
    (onthemap-tests--mode-line-is " 📍 logged out")
    (setq mark (length onthemap-tests--messages))
    (with-current-buffer (onthemap)
      (onthemap-tests--message-since mark "Not logged in")
      (should (string-search "Not logged in" (onthemap-tests--header)))
      (kill-buffer))))

;;;; The header line's age

(defun onthemap-tests--list-buffers ()
  "The students lists alive."
  (seq-filter (lambda (buffer) (with-current-buffer buffer (derived-mode-p 'onthemap-students-mode)))
              (buffer-list)))

(defun onthemap-tests--ago (seconds)
  "A wire timestamp SECONDS ago."
  (format-time-string "%FT%T.000Z" (time-subtract nil seconds) t))

(ert-deftest onthemap-test-13-header-age-stays-current ()
  ;; Emacs redraws a header line only when something else changes; a timer, one
  ;; for all lists, redraws it while a list lives, so its age is current.
  (mapc #'kill-buffer (onthemap-tests--list-buffers))
  (should-not onthemap--header-timer)
  (let* ((onthemap-header-update-interval 0.1)
         (redrawn nil)
         (record (lambda (&rest _) (push (current-buffer) redrawn)))
         (buffer (onthemap--list-buffer "*OnTheMap age test*" nil))
         (other nil)
         (timer onthemap--header-timer))
    (unwind-protect
        (progn
          (should (timerp timer))
          (should (memq timer timer-list))
          (with-current-buffer buffer
            (onthemap--fill buffer (list :students [] :total 0 :refreshedAt (onthemap-tests--ago 0)))
            (should (string-search "refreshed just now" (onthemap-tests--header)))
            ;; Time passes: the cache this list shows was refreshed three minutes ago.
            (setq onthemap--shown (plist-put (copy-sequence onthemap--shown) :refreshedAt (onthemap-tests--ago 180)))
            (advice-add 'force-mode-line-update :before record)
            (unwind-protect
                (onthemap-tests--wait "the timer to redraw the header line" (lambda () (memq buffer redrawn)) 5)
              (advice-remove 'force-mode-line-update record))
            (should (string-search "refreshed 3 min ago" (onthemap-tests--header))))
          ;; A second list shares the timer; killing the last list cancels it.
          (setq other (onthemap--list-buffer "*OnTheMap age test 2*" nil))
          (should (eq onthemap--header-timer timer))
          (kill-buffer buffer)
          (should (eq onthemap--header-timer timer))
          (kill-buffer other)
          (should-not onthemap--header-timer)
          (should-not (memq timer timer-list)))
      (dolist (b (list buffer other)) (when (buffer-live-p b) (kill-buffer b))))))

;;;; Painting a map result of the documented shape

(ert-deftest onthemap-test-20-map-painting ()
  (let ((result (list :rows ["⠀⣿⣿⠀2⠀" "⠀⣿⠁⠀⠀⠀"]
                      :styles [" llbc " " lm   "]
                      :pins (vector (list :n 1 :row 0 :col 4 :firstName "Ada" :lastName "L" :mapString "Munich"
                                          :mediaURL "https://a.example" :mine :json-false)
                                    (list :n 2 :row 0 :col 4 :firstName "Alan" :lastName "T" :mapString "Munich"
                                          :mediaURL "https://b.example" :mine :json-false)
                                    (list :n 3 :row 1 :col 2 :firstName "Me" :lastName "Myself" :mapString "Köln"
                                          :mediaURL "https://me.example" :mine t))
                      :view (list :west -180 :south -85 :east 180 :north 85 :zoom 1)))
        (buffer (get-buffer-create "*onthemap map test*")))
    (with-current-buffer buffer
      (onthemap-map-mode)
      (onthemap-map-render buffer result)
      (should (equal (buffer-substring-no-properties 1 7) "⠀⣿⣿⠀2⠀"))
      (should (equal (mapcar (lambda (pos) (get-text-property pos 'face)) '(1 2 3 4 5 6))
                     '(nil onthemap-land onthemap-land onthemap-coast onthemap-cluster nil)))
      (should (equal (get-text-property 10 'face) 'onthemap-my-pin))
      (should (string-search "3 pins in view" (buffer-string)))
      ;; RET on the map cell with two pins asks which; on a legend line opens that pin.
      (goto-char 5)
      (cl-letf (((symbol-function 'completing-read) (lambda (_ collection &rest _) (car (nth 1 collection)))))
        (call-interactively (key-binding (kbd "RET"))))
      (should (equal (car onthemap-tests--opened) "https://b.example"))
      (goto-char (point-max))
      (forward-line -1)
      (should (string-search "Me Myself (you)" (thing-at-point 'line)))
      (call-interactively (key-binding (kbd "RET")))
      (should (equal (car onthemap-tests--opened) "https://me.example"))
      (kill-buffer))))

(ert-deftest onthemap-test-21-socket-candidates ()
  (let ((process-environment (copy-sequence process-environment))
        (onthemap-socket nil)
        (uid (user-uid)))
    (setenv "ONTHEMAP_SOCKET" nil)
    (setenv "XDG_RUNTIME_DIR" "/run/user/4242")
    (should (equal (onthemap-socket-candidates)
                   (list "/run/user/4242/onthemap/onthemapd.sock"
                         (format "/run/user/%d/onthemap/onthemapd.sock" uid)
                         (format "/tmp/onthemap-%d/onthemapd.sock" uid))))
    (setenv "XDG_RUNTIME_DIR" nil)
    (should (equal (onthemap-socket-candidates)
                   (list (format "/run/user/%d/onthemap/onthemapd.sock" uid)
                         (format "/tmp/onthemap-%d/onthemapd.sock" uid))))
    (setenv "ONTHEMAP_SOCKET" "/somewhere/d.sock")
    (should (equal (onthemap-socket-candidates) '("/somewhere/d.sock")))
    (let ((onthemap-socket "/option/d.sock"))
      (should (equal (onthemap-socket-candidates) '("/option/d.sock"))))))

(ert-deftest onthemap-test-22-advice-quotes-the-socket-for-the-shell ()
  (should (equal (onthemap--shell-quote "/run/user/1000/onthemap/onthemapd.sock") "/run/user/1000/onthemap/onthemapd.sock"))
  (should (equal (onthemap--shell-quote "~/$HOME;x") "'~/$HOME;x'"))
  (should (equal (onthemap--shell-quote "it's") "'it'\\''s'"))
  (should (equal (onthemap--shell-quote "") "''"))
  (let* ((path (expand-file-name "it's a dir/onthemapd.sock"
                                 (file-name-directory (onthemap-tests--env "ONTHEMAP_TEST_DEAD_SOCKET"))))
         (message (onthemap--unreachable-message (list (cons path "No such file or directory"))))
         (command (and (string-match "`\\(onthemapd --socket .*\\)' (or name no socket" message)
                       (match-string 1 message))))
    (should (string-search (concat "cannot reach onthemapd at " path " (No such file or directory)") message))
    (should (equal command (concat "onthemapd --socket '" (string-replace "'" "'\\''" path) "'")))
    ;; What a user pasting it into a shell runs.
    (with-temp-buffer
      (should (eql 0 (call-process "sh" nil t nil "-c" (concat "set -- " command "; printf %s \"$3\""))))
      (should (equal (buffer-string) path)))))

;;;; No daemon, and a daemon that never answers

(defconst onthemap-tests--quick 3.0
  "Seconds within which a command returns: a blocking one would take the timeout.")

(defmacro onthemap-tests--seconds (&rest body)
  "Run BODY; return the seconds it took."
  `(let ((started (float-time))) ,@body (- (float-time) started)))

(defun onthemap-tests--loop-runs ()
  "Fail unless a timer fires: the event loop runs while requests are pending."
  (let ((fired nil))
    (run-at-time 0.01 nil (lambda () (setq fired t)))
    (onthemap-tests--wait "a timer to fire" (lambda () fired) onthemap-tests--quick)))

(ert-deftest onthemap-test-30-no-daemon ()
  (let* ((onthemap-socket (onthemap-tests--env "ONTHEMAP_TEST_DEAD_SOCKET"))
         (mark (length onthemap-tests--messages))
         buffer)
    (should (< (onthemap-tests--seconds (setq buffer (onthemap))) onthemap-tests--quick))
    (let ((message (onthemap-tests--message-since mark (concat "cannot reach onthemapd at " onthemap-socket))))
      (should (string-search (concat "onthemapd --socket " onthemap-socket) message))
      (should (string-search "systemctl --user start onthemapd.socket" message)))
    (with-current-buffer buffer
      (onthemap-tests--wait "the header line" (lambda () (string-search "cannot reach" (onthemap-tests--header))))
      (kill-buffer))
    (setq mark (length onthemap-tests--messages))
    (cl-letf (((symbol-function 'read-passwd) (lambda (&rest _) (copy-sequence "not-sent"))))
      (onthemap-login "someone@example.com"))
    (onthemap-tests--message-since mark "login: cannot reach onthemapd")
    (onthemap-status-mode -1)
    (onthemap-status-mode 1)
    (onthemap-tests--mode-line-is " 📍 offline" onthemap-tests--quick)))

(ert-deftest onthemap-test-32-foreign-socket-refused ()
  "Only root can make the socket file of another user this needs.
Tagged `root': the Swift test runs it on its own, in a test enabled
only as root, which Swift Testing reports as skipped for anyone else."
  :tags '(root)
  (let* ((foreign (onthemap-tests--env "ONTHEMAP_TEST_FOREIGN_SOCKET"))
         (onthemap-socket foreign)
         (mark (length onthemap-tests--messages)))
    (onthemap-logout)
    (should (string-search "Nothing was sent"
                           (onthemap-tests--message-since
                            mark (format "refusing the socket %s: it belongs to uid 65534" foreign)
                            onthemap-tests--quick)))))

(ert-deftest onthemap-test-31-daemon-never-answers ()
  (let* ((onthemap-socket (onthemap-tests--env "ONTHEMAP_TEST_HUNG_SOCKET"))
         (onthemap-timeout 10)
         (mark (length onthemap-tests--messages))
         buffer)
    (should (< (onthemap-tests--seconds (setq buffer (onthemap))) onthemap-tests--quick))
    (onthemap-tests--loop-runs)
    (onthemap-tests--message-since mark "onthemapd did not answer students within 10 s" 40)
    (kill-buffer buffer)
    (setq mark (length onthemap-tests--messages))
    (cl-letf (((symbol-function 'read-passwd) (lambda (&rest _) (copy-sequence "hung-secret"))))
      (should (< (onthemap-tests--seconds (onthemap-login "someone@example.com")) onthemap-tests--quick)))
    (onthemap-tests--loop-runs)
    (onthemap-tests--message-since mark "onthemapd did not answer login" 40)
    (onthemap-tests--password-nowhere "hung-secret")
    (onthemap-status-mode -1)
    (should (< (onthemap-tests--seconds (onthemap-status-mode 1)) onthemap-tests--quick))
    (onthemap-tests--mode-line-is " 📍 offline" 40)
    (onthemap-status-mode -1)))

(provide 'onthemap-tests)
;;; onthemap-tests.el ends here
