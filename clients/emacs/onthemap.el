;;; onthemap.el --- OnTheMap students, pins and status through onthemapd  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The OnTheMap for Linux authors

;; Author: OnTheMap for Linux
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: comm, tools
;; URL: https://github.com/onthemap/onthemap-linux

;; This file is not part of GNU Emacs.

;;; Commentary:

;; Browse the students of OnTheMap, open their links, post or move your
;; own pin and see the daemon's state in the mode line, without leaving
;; Emacs.  Everything goes through `onthemapd', the per-user daemon, over
;; its Unix socket with the built-in `jsonrpc' library (the daemon
;; understands its Content-Length framing).  Every request is
;; asynchronous: a slow or missing daemon never freezes Emacs.
;;
;; Commands:
;;   M-x onthemap          the newest students (RET opens a link, g refreshes)
;;   M-x onthemap-near     the students nearest to a place
;;   M-x onthemap-map      the map drawn by the daemon
;;   M-x onthemap-post     post or move your pin
;;   M-x onthemap-login    log in (the password is read with `read-passwd')
;;   M-x onthemap-logout   log out
;;   M-x onthemap-status-mode   the status in the mode line
;;
;; See docs/EDITORS.md in the OnTheMap for Linux repository.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'seq)
(require 'subr-x)
(require 'tabulated-list)

(defgroup onthemap nil
  "OnTheMap students through the onthemapd daemon."
  :group 'comm
  :prefix "onthemap-")

(defcustom onthemap-socket nil
  "The daemon's socket, or nil for the same rule as the `onthemap' CLI.
That rule is: $ONTHEMAP_SOCKET, else
$XDG_RUNTIME_DIR/onthemap/onthemapd.sock, else
/tmp/onthemap-UID/onthemapd.sock."
  :type '(choice (const :tag "As the CLI finds it" nil) file))

(defcustom onthemap-timeout 20
  "Seconds before a request with no answer fails with a message.
Emacs never waits for it: every request is asynchronous."
  :type 'number)

(defcustom onthemap-limit 100
  "How many students the list shows."
  :type 'integer)

(defcustom onthemap-header-update-interval 30
  "Seconds between redraws of the students lists' header lines.
A header line says how long ago the daemon refreshed the list
\(\"refreshed 3 min ago\"); Emacs redraws it only when something
else changes, so one timer redraws it while a list lives.  nil: no
timer.  A change applies from the next list opened when none is."
  :type '(choice (const :tag "Never" nil) number))

(defcustom onthemap-browse-function #'browse-url
  "The function that opens a student's link, called with the URL."
  :type 'function)

(defcustom onthemap-username nil
  "The default account offered by `onthemap-login'."
  :type '(choice (const nil) string))

(defcustom onthemap-mode-line-icon "📍"
  "What the mode-line status starts with."
  :type 'string)

(defcustom onthemap-reconnect-delay 1.0
  "Seconds before the mode line's subscription reconnects.
The delay doubles after each failed attempt, up to 30 seconds."
  :type 'number)

;;;; The socket and the connection

(defun onthemap-socket-candidates ()
  "Return the daemon's socket paths to try, in order (the `onthemap' CLI's rule).
An explicit choice (`onthemap-socket', else $ONTHEMAP_SOCKET) is
the only one; otherwise $XDG_RUNTIME_DIR/onthemap/onthemapd.sock
when that is set, then /run/user/UID/onthemap/onthemapd.sock,
then /tmp/onthemap-UID/onthemapd.sock."
  (let ((env (getenv "ONTHEMAP_SOCKET"))
        (runtime (getenv "XDG_RUNTIME_DIR"))
        (systemd (format "/run/user/%d/onthemap/onthemapd.sock" (user-uid))))
    (cond ((and onthemap-socket (not (string-empty-p onthemap-socket))) (list onthemap-socket))
          ((and env (not (string-empty-p env))) (list env))
          (t (delete-dups
              (append (when (and runtime (string-prefix-p "/" runtime))
                        (list (concat runtime "/onthemap/onthemapd.sock")))
                      (list systemd (format "/tmp/onthemap-%d/onthemapd.sock" (user-uid)))))))))

(defun onthemap-socket-path ()
  "The first socket path to try: where the daemon is expected."
  (car (onthemap-socket-candidates)))

(define-error 'onthemap-unreachable "Cannot reach onthemapd")

(defun onthemap--shell-quote (string)
  "STRING as one word for a POSIX shell, to paste into a command.
Bare when made only of [A-Za-z0-9_./-], else in single quotes (a
single quote inside is closed, escaped and reopened).  Unlike
`shell-quote-argument', which escapes with backslashes, this still
reads as a path."
  (if (let ((case-fold-search nil)) (string-match-p "\\`[A-Za-z0-9_./-]+\\'" string))
      string
    (concat "'" (string-replace "'" "'\\''" string) "'")))

(defun onthemap--unreachable-message (attempts)
  "Return why nothing answered, given ATTEMPTS, a list of (PATH . REASON).
Worded as the CLI words it, the path in the advice quoted for a shell.
One path tried is one named by hand (the defaults are at least two),
where the systemd socket does not listen."
  (if (null (cdr attempts))
      (format (concat "cannot reach onthemapd at %s (%s). Start one there with `onthemapd --socket %s' "
                      "(or name no socket and run `systemctl --user start onthemapd.socket').")
              (caar attempts) (cdar attempts) (onthemap--shell-quote (caar attempts)))
    (format "cannot reach onthemapd (tried %s). Start it with `systemctl --user start onthemapd.socket', or run `onthemapd'."
            (mapconcat (lambda (a) (concat (car a) ": " (cdr a))) attempts "; "))))

(defun onthemap--foreign-owner (path)
  "The uid owning the socket file at PATH when it is neither yours nor root's.
Such a socket is not your daemon: another user may be impersonating
it.  The CLI asks the kernel who serves the socket; Emacs cannot,
and the file's owner is who bound it."
  (let ((uid (file-attribute-user-id (file-attributes path 'integer))))
    (and uid (/= uid (user-uid)) (/= uid 0) uid)))

(defun onthemap--open-socket (name)
  "Connect a process called NAME to the first candidate socket that answers.
Signal `onthemap-unreachable' when none does, or when a socket
belongs to another user (then nothing is sent)."
  (let ((attempts nil) (process nil))
    (cl-loop for path in (onthemap-socket-candidates)
             until process
             do (when-let ((owner (onthemap--foreign-owner path)))
                  (signal 'onthemap-unreachable
                          (list (format "refusing the socket %s: it belongs to uid %d, not to you or root, so it is not your onthemapd (another user may be impersonating it). Nothing was sent. Remove it, and use a private directory (XDG_RUNTIME_DIR)."
                                        path owner))))
             (condition-case err
                 ;; Decoded as UTF-8 into Emacs's internal form, whose bytes jsonrpc counts
                 ;; against Content-Length (as eglot does); `binary' breaks on "München".
                 (setq process (make-network-process :name name :family 'local :service path
                                                     :coding 'utf-8-emacs-unix :noquery t))
               (error (push (cons path (if (stringp (nth 2 err)) (nth 2 err) (error-message-string err)))
                            attempts))))
    (or process
        (signal 'onthemap-unreachable (list (onthemap--unreachable-message (nreverse attempts)))))))

(defvar onthemap--connections-opened 0
  "How many connections were opened: each gets its own name and buffers.")

(defun onthemap--connect (purpose &optional on-notification on-shutdown)
  "Open a connection to the daemon for PURPOSE (a short name) and return it.
ON-NOTIFICATION is called with the method symbol and params of
each notification; ON-SHUTDOWN with the connection when it closes.
Signal `onthemap-unreachable' when nothing answers at the socket."
  (let* (;; A name of its own: the buffers of a closing connection are
         ;; killed while its successor already runs.
         (name (format "onthemap-%s-%d" purpose (cl-incf onthemap--connections-opened)))
         (process (onthemap--open-socket name))
         (connection
          (jsonrpc-process-connection
           :name name :process process
           ;; No events buffer: it would record every message, a password included.
           :events-buffer-scrollback-size 0
           :notification-dispatcher
           (lambda (_connection method params)
             (when on-notification (funcall on-notification method params)))
           :on-shutdown
           (lambda (connection)
             (onthemap--discard-buffers connection)
             (when on-shutdown (funcall on-shutdown connection))))))
    ;; jsonrpc announces every closed connection ("Server exited"); a daemon
    ;; closing an idle connection is routine, so that message is kept quiet.
    (let ((sentinel (process-sentinel process)))
      (set-process-sentinel process
                            (lambda (proc change)
                              (let ((inhibit-message t) (message-log-max nil))
                                (funcall sentinel proc change)))))
    connection))

(defun onthemap--discard-buffers (connection)
  "Kill the helper buffers jsonrpc made for CONNECTION."
  (let ((process (jsonrpc--process connection)))
    (dolist (buffer (list (process-buffer process)
                          (process-get process 'jsonrpc-stderr)
                          (get-buffer (format "*%s events*" (jsonrpc-name connection)))))
      (when (buffer-live-p buffer) (kill-buffer buffer)))))

(defvar onthemap--connection nil
  "The connection requests go over, opened on first use.")

(defvar onthemap--connection-candidates nil
  "The socket candidates `onthemap--connection' was opened from.")

(defun onthemap--request-connection ()
  "The live request connection, opened if needed.
A connection opened from other candidates than
`onthemap-socket-candidates' now gives is closed first, so
changing `onthemap-socket' takes effect."
  (let ((candidates (onthemap-socket-candidates)))
    (when (and onthemap--connection (not (equal candidates onthemap--connection-candidates)))
      (onthemap--close onthemap--connection)
      (setq onthemap--connection nil))
    (unless (and onthemap--connection (jsonrpc-running-p onthemap--connection))
      (setq onthemap--connection (onthemap--connect "requests")
            onthemap--connection-candidates candidates)))
  onthemap--connection)

(defun onthemap--close (connection)
  "Close CONNECTION if it is still open."
  (when (jsonrpc-running-p connection)
    (delete-process (jsonrpc--process connection))))

(defun onthemap--later (function &rest arguments)
  "Call FUNCTION with ARGUMENTS from a timer, outside process sentinels.
jsonrpc may call back from a sentinel where messages are silenced."
  (when function (apply #'run-at-time 0 nil function arguments)))

(defun onthemap--report (error &optional doing)
  "Show ERROR, a plist with :message, in the echo area.
DOING, if non-nil, names what failed."
  (message "OnTheMap: %s%s" (if doing (concat doing ": ") "") (plist-get error :message)))

(defun onthemap-request (method params on-success &optional on-error)
  "Call METHOD (a symbol) with PARAMS (a plist or nil) asynchronously.
ON-SUCCESS gets the result.  ON-ERROR (default: a message) gets a
plist (:code :message :data :kind); :kind is `daemon' when the
daemon answered with an error (its own code and message),
`unreachable', `timeout' or `closed'.  Returns at once."
  (let ((on-error (or on-error #'onthemap--report)))
    (condition-case err
        (let* ((connection (onthemap--request-connection))
               (path (process-contact (jsonrpc--process connection) :service)))
          (jsonrpc-async-request
           connection method params
           :timeout onthemap-timeout
           :success-fn (lambda (result) (onthemap--later on-success result))
           :error-fn
           (lambda (error)
             (onthemap--later
              on-error
              (if (eql (plist-get error :code) -1)
                  (list :kind 'closed :message (format "onthemapd closed the connection before answering %s" method))
                (append (list :kind 'daemon) error))))
           :timeout-fn
           (lambda ()
             (onthemap--later
              on-error
              (list :kind 'timeout
                    :message (format "onthemapd did not answer %s within %s s (%s)" method onthemap-timeout path))))))
      (onthemap-unreachable
       (onthemap--later on-error (list :kind 'unreachable :message (cadr err))))
      (error
       (onthemap--later on-error (list :kind 'closed :message (error-message-string err)))))
    nil))

;;;; Text helpers

(defun onthemap--clean (text)
  "TEXT from upstream, with control characters turned into spaces."
  (if (stringp text) (replace-regexp-in-string "[[:cntrl:]]" " " text) ""))

(defun onthemap--name (student)
  "The full name of STUDENT (a plist)."
  (onthemap--clean (string-join (delq nil (list (plist-get student :firstName)
                                                (plist-get student :lastName)))
                                " ")))

(defun onthemap--age (timestamp)
  "How long ago TIMESTAMP was: \"just now\", \"5 min ago\", \"3 h ago\"."
  (if-let ((time (and (stringp timestamp) (ignore-errors (date-to-time timestamp)))))
      (let ((seconds (floor (float-time (time-subtract nil time)))))
        (cond ((< seconds 60) "just now")
              ((< seconds 3600) (format "%d min ago" (/ seconds 60)))
              ((< seconds 86400) (format "%d h ago" (/ seconds 3600)))
              ((< seconds (* 365 86400)) (format "%d d ago" (/ seconds 86400)))
              (t (format "%d y ago" (/ seconds (* 365 86400))))))
    "—"))

(defun onthemap--place (match)
  "A geocoder MATCH as \"Köln, North Rhine-Westphalia, Germany\"."
  (onthemap--clean
   (string-join (delete-dups (seq-remove #'string-empty-p
                                         (delq nil (list (plist-get match :name)
                                                         (plist-get match :admin1)
                                                         (plist-get match :country)))))
                ", ")))

(defun onthemap--true-p (value)
  "Whether the JSON VALUE is true (false arrives as :json-false)."
  (and value (not (eq value :json-false))))

;;;; Opening links

(defun onthemap-open-link (url)
  "Open URL with `onthemap-browse-function', if it is an http(s) link.
Says which URL it opens: a browser started in the background fails
out of sight (no display, none installed)."
  (if (and (stringp url) (string-match-p "\\`https?://[^[:space:]]+\\'" url))
      (condition-case err
          (progn (message "OnTheMap: opening %s (with %s)" url
                          (if (symbolp onthemap-browse-function) onthemap-browse-function "a function"))
                 (funcall onthemap-browse-function url))
        (error (message "OnTheMap: could not open %s: %s; see `onthemap-browse-function'"
                        url (error-message-string err))))
    (message "OnTheMap: this student has no http(s) link to open")))

(defun onthemap--typed-link (input)
  "The link the user meant by INPUT, trimmed.
With https:// in front when it names no scheme; nil for nothing typed."
  (let ((link (string-trim (or input ""))))
    (cond ((string-empty-p link) nil)
          ((string-match-p "\\`[[:alpha:]][[:alnum:]+.-]*://" link) link)
          (t (concat "https://" link)))))

;;;; The students list

(defvar-local onthemap--search nil
  "In a search list: the words searched for.")

(defvar-local onthemap--near nil
  "In a near list: (LATITUDE LONGITUDE LABEL KM) of the centre.")

(defvar-local onthemap--generation 0
  "How many times this list was filled; tests wait for it to move.")

(defvar onthemap-students-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'onthemap-open-student-link)
    (define-key map (kbd "g") #'revert-buffer)
    map)
  "Keys of `onthemap-students-mode'.")

;; The header line's age changes with time, not with the list, and Emacs redraws a
;; header line only when something else changes: one timer, as `display-time'
;; keeps one, redraws the lists' header lines while a list lives.

(defvar onthemap--header-timer nil
  "The timer redrawing the header lines of the students lists, while one lives.")

(defun onthemap--list-buffers (&optional except)
  "The live students lists, leaving out EXCEPT."
  (seq-filter (lambda (buffer)
                (and (not (eq buffer except))
                     (provided-mode-derived-p (buffer-local-value 'major-mode buffer)
                                              'onthemap-students-mode)))
              (buffer-list)))

(defun onthemap--header-timer-stop ()
  "Cancel the timer of the header lines."
  (when (timerp onthemap--header-timer) (cancel-timer onthemap--header-timer))
  (setq onthemap--header-timer nil))

(defun onthemap--header-tick ()
  "Redraw the header line of each students list; stop when none is left."
  (if-let ((lists (onthemap--list-buffers)))
      (dolist (buffer lists)
        (with-current-buffer buffer (force-mode-line-update)))
    (onthemap--header-timer-stop)))

(defun onthemap--header-timer-start ()
  "Start the timer of the header lines if none is running.
It fires every `onthemap-header-update-interval' seconds, when that is set."
  (when (and (numberp onthemap-header-update-interval) (> onthemap-header-update-interval 0)
             (not (timerp onthemap--header-timer)))
    (setq onthemap--header-timer (run-at-time onthemap-header-update-interval onthemap-header-update-interval
                                              #'onthemap--header-tick))))

(defun onthemap--list-gone ()
  "Stop the timer of the header lines if this buffer was the last list.
Run from `kill-buffer-hook' and `change-major-mode-hook' in a list."
  (unless (onthemap--list-buffers (current-buffer))
    (onthemap--header-timer-stop)))

(define-derived-mode onthemap-students-mode tabulated-list-mode "OnTheMap"
  "The students of OnTheMap, newest first or nearest first.
Click a column header to sort by it.  \\<onthemap-students-mode-map>
\\[onthemap-open-student-link] opens the student's link, \\[revert-buffer] fetches the list again.
The age in the header line is redrawn every
`onthemap-header-update-interval' seconds.

\\{onthemap-students-mode-map}"
  (setq-local revert-buffer-function #'onthemap--revert)
  ;; The header line says how many and how fresh; the column titles go on the first line.
  (setq tabulated-list-use-header-line nil)
  (setq tabulated-list-padding 1)
  (add-hook 'kill-buffer-hook #'onthemap--list-gone nil t)
  (add-hook 'change-major-mode-hook #'onthemap--list-gone nil t)
  (onthemap--header-timer-start))

(defun onthemap--updated-< (a b)
  "Whether entry A was updated before entry B (for sorting)."
  (string< (or (plist-get (car a) :updatedAt) "") (or (plist-get (car b) :updatedAt) "")))

(defun onthemap--km-< (a b)
  "Whether entry A is nearer than entry B (for sorting)."
  (< (string-to-number (aref (cadr a) 2)) (string-to-number (aref (cadr b) 2))))

(defun onthemap--set-format ()
  "The columns of the list, with a Km column in a near list."
  (setq tabulated-list-format
        (vconcat (list '("Name" 22 t) '("Place" 26 t))
                 (when onthemap--near (list '("Km" 6 onthemap--km-< :right-align t)))
                 (list '("Link" 40 t) '("Updated" 10 onthemap--updated-<))))
  (tabulated-list-init-header))

(defun onthemap--entries (students)
  "Tabulated list entries of STUDENTS (a vector of plists).
In a near list, the Km column shows each student's `distanceKm' from
the daemon's answer."
  (mapcar
   (lambda (student)
     ;; The daemon's distance: one distance (one Earth radius) in every client.  Its one
     ;; decimal makes halves common: they round up, as in the CLI and Neovim (`round' and
     ;; "%.0f" would show 252.5 as 252).
     (let ((km (plist-get student :distanceKm)))
       (list student
             (vconcat
              (list (onthemap--name student) (onthemap--clean (plist-get student :mapString)))
              (when onthemap--near
                (list (if (numberp km) (number-to-string (floor (+ km 0.5))) "")))
              (list (onthemap--clean (plist-get student :mediaURL))
                    (onthemap--age (plist-get student :updatedAt)))))))
   students))

(defvar-local onthemap--shown nil
  "The last `students' result shown in this list, for its header line.")

(defun onthemap--header ()
  "The header line of a students list: how many, in which order, how fresh.
Computed at each redisplay, so the order follows a sort and the age
of the refresh is current whenever the window is redrawn (at least
every `onthemap-header-update-interval' seconds)."
  (let* ((result onthemap--shown)
         (shown (length (plist-get result :students)))
         (sort-key (car tabulated-list-sort-key)))
    (concat (format " %d of %d students" shown (or (plist-get result :total) shown))
            (when onthemap--search (format " matching \"%s\"" onthemap--search))
            (when onthemap--near
              (format " %s %s%s" (if sort-key "near" "nearest to") (nth 2 onthemap--near)
                      (if (nth 3 onthemap--near) (format " (within %s km)" (nth 3 onthemap--near)) "")))
            (cond (sort-key (format ", sorted by %s%s" sort-key (if (cdr tabulated-list-sort-key) " (reversed)" "")))
                  ((not onthemap--near) ", newest first"))
            (format " · refreshed %s" (onthemap--age (plist-get result :refreshedAt)))
            (if (onthemap--true-p (plist-get result :stale)) " (stale: the daemon could not refresh)" ""))))

(defun onthemap--fill (buffer result)
  "Show the `students' RESULT in BUFFER."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq onthemap--shown result)
      (setq tabulated-list-entries (onthemap--entries (plist-get result :students)))
      (setq header-line-format '(:eval (onthemap--header)))
      (tabulated-list-print t)
      (cl-incf onthemap--generation))))

(defun onthemap--failed (buffer error)
  "Show ERROR in BUFFER's header line and the echo area."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq header-line-format (concat " OnTheMap: " (plist-get error :message) "  (g tries again)"))
      (cl-incf onthemap--generation)
      (force-mode-line-update)))
  (onthemap--report error))

(defun onthemap--fetch (buffer refresh)
  "Fetch the students for BUFFER; REFRESH asks the daemon to fetch anew first."
  (let ((near (buffer-local-value 'onthemap--near buffer))
        (search (buffer-local-value 'onthemap--search buffer)))
    (onthemap-request 'students
                      (append (list :limit onthemap-limit)
                              (when refresh (list :refresh t))
                              (when search (list :search search))
                              (when near (list :near (append (list :latitude (nth 0 near) :longitude (nth 1 near))
                                                             (when (nth 3 near) (list :radiusKm (nth 3 near)))))))
                      (lambda (result) (onthemap--fill buffer result))
                      (lambda (error) (onthemap--failed buffer error)))))

(defun onthemap--revert (&rest _)
  "Fetch the list again, asking the daemon to refresh (bound to g)."
  (onthemap--fetch (current-buffer) t))

(defun onthemap--list-buffer (name near)
  "The list buffer NAME, set up for NEAR (nil or the centre)."
  (let ((buffer (get-buffer-create name)))
    (with-current-buffer buffer
      (unless (derived-mode-p 'onthemap-students-mode) (onthemap-students-mode))
      (setq onthemap--near near)
      (onthemap--set-format)
      (setq header-line-format " Loading students…"))
    buffer))

;;;###autoload
(defun onthemap ()
  "Show the newest students of OnTheMap."
  (interactive)
  (let ((buffer (onthemap--list-buffer "*OnTheMap*" nil)))
    (pop-to-buffer-same-window buffer)
    (onthemap--fetch buffer nil)
    buffer))

;;;###autoload
(defun onthemap-search (words)
  "Show the students whose name or place match WORDS, newest first.
Every word must match; case and accents are ignored (\"koln\" finds
\"Köln\"), as with `onthemap students --search'."
  (interactive (list (read-string "Search students (name or place): ")))
  (let ((buffer (onthemap--list-buffer "*OnTheMap search*" nil)))
    (with-current-buffer buffer (setq onthemap--search words))
    (pop-to-buffer-same-window buffer)
    (onthemap--fetch buffer nil)
    buffer))

;;;###autoload
(defun onthemap-near (place &optional km)
  "Show the students nearest to PLACE (a place name or \"LAT,LON\").
With KM, only those within KM kilometres."
  (interactive
   (list (read-string "Students near (place or lat,lon): ")
         (let ((km (read-string "Within km (empty: any distance): ")))
           (unless (string-empty-p km) (string-to-number km)))))
  (let ((buffer (onthemap--list-buffer "*OnTheMap near*" nil)))
    (pop-to-buffer-same-window buffer)
    (setq header-line-format (format " Looking up %s…" place))
    (if (string-match "\\`[[:space:]]*\\(-?[0-9.]+\\)[[:space:]]*,[[:space:]]*\\(-?[0-9.]+\\)[[:space:]]*\\'" place)
        (progn
          (setq onthemap--near (list (string-to-number (match-string 1 place))
                                     (string-to-number (match-string 2 place)) place km))
          (onthemap--set-format)
          (onthemap--fetch buffer nil))
      (onthemap-request
       'geocode (list :query place :limit 1)
       (lambda (result)
         (let ((match (and (> (length (plist-get result :results)) 0) (aref (plist-get result :results) 0))))
           (when (buffer-live-p buffer)
             (with-current-buffer buffer
               (setq onthemap--near (list (plist-get match :latitude) (plist-get match :longitude)
                                          (onthemap--place match) km))
               (onthemap--set-format)
               (onthemap--fetch buffer nil)))))
       (lambda (error) (onthemap--failed buffer error))))
    buffer))

(defun onthemap-open-student-link ()
  "Open the link of the student on this line."
  (interactive)
  (if-let ((student (tabulated-list-get-id)))
      (onthemap-open-link (plist-get student :mediaURL))
    (message "OnTheMap: no student on this line")))

;;;; Posting a pin

(defun onthemap--move-question (from to)
  "The question before your pin at FROM is replaced by one at TO."
  (if (equal from to)
      (format "Replace your pin at %s (new link)? " to)
    (format "Move your pin from %s to %s? " from to)))

(defun onthemap--post-pin (params)
  "Send the pin PARAMS; when one exists, ask before moving it."
  (onthemap-request
   'postPin params
   (lambda (result)
     (let ((pin (plist-get result :pin)))
       (message "OnTheMap: %s %s (%s)"
                (if (onthemap--true-p (plist-get result :created)) "posted your pin at" "moved your pin to")
                (onthemap--clean (plist-get pin :mapString)) (onthemap--clean (plist-get pin :mediaURL)))))
   (lambda (error)
     (let ((existing (plist-get (plist-get error :data) :pin)))
       (cond ((and (eql (plist-get error :code) -32006) (not (plist-get params :overwrite)))
              (if (y-or-n-p (onthemap--move-question (onthemap--clean (plist-get existing :mapString))
                                                     (plist-get params :mapString)))
                  (onthemap--post-pin (append params (list :overwrite t)))
                (message "OnTheMap: your pin stays at %s" (onthemap--clean (plist-get existing :mapString)))))
             (t (onthemap--report error "post")))))))

;;;###autoload
(defun onthemap-post (place)
  "Post your pin at PLACE, or move it there.
Offers the geocoder's matches for PLACE, asks for the link (your
pin's link is the default), and asks before moving an existing pin.
An empty PLACE keeps your pin where it is and changes only its link."
  (interactive (list (read-string "Place (empty keeps your pin's place): ")))
  (let ((place (string-trim place)))
    (onthemap-request
     'myPin nil
     (lambda (result)
       (let ((current (plist-get result :pin)))
         (cond ((not (string-empty-p place)) (onthemap--post-at place current))
               (current (onthemap--post-with-link (plist-get current :mapString) current current))
               (t (message "OnTheMap: you have no pin yet: name a place")))))
     (lambda (error) (onthemap--report error "post")))))

(defun onthemap--post-at (place current)
  "Offer the geocoder's matches for PLACE, then post there.
CURRENT is your pin (or nil), whose link is offered."
  (onthemap-request
   'geocode (list :query place :limit 5)
   (lambda (result)
     (let* ((choices (mapcar (lambda (match)
                               (cons (format "%s (%s)" (onthemap--place match) (plist-get match :precision)) match))
                             (append (plist-get result :results) nil)))
            (choice (completing-read (format-prompt "Which %s" (caar choices) place) choices nil t nil nil (caar choices)))
            (match (cdr (assoc choice choices))))
       (when match (onthemap--post-with-link place match current))))
   (lambda (error) (onthemap--report error "post"))))

(defun onthemap--post-with-link (place where current)
  "Ask the link, then post the pin named PLACE at WHERE (a plist with coordinates).
CURRENT is your pin (or nil): its link is the default."
  (let* ((default (plist-get current :mediaURL))
         (link (onthemap--typed-link (read-string (format-prompt "Link (http or https)" default) nil nil default))))
    (when link
      (onthemap--post-pin (list :mapString place :mediaURL link
                                :latitude (plist-get where :latitude)
                                :longitude (plist-get where :longitude))))))

;;;; Login and logout

;;;###autoload
(defun onthemap-login (username)
  "Log in to OnTheMap as USERNAME; the password is read with `read-passwd'.
The password goes to the daemon, which forwards it once and keeps
only the session; it is wiped from memory once sent."
  (interactive (list (read-string "Udacity email: " onthemap-username)))
  (let ((password (read-passwd (format "Password for %s: " username))))
    (unwind-protect
        (onthemap-request 'login (list :username username :password password)
                          (lambda (account) (message "OnTheMap: logged in as %s" (onthemap--name account)))
                          (lambda (error) (onthemap--report error "login")))
      (clear-string password))))

;;;###autoload
(defun onthemap-logout ()
  "Log out of OnTheMap (the daemon forgets the session even offline)."
  (interactive)
  (onthemap-request 'logout nil
                    (lambda (result)
                      (let ((upstream (plist-get result :upstream)))
                        (message "OnTheMap: %s"
                                 (cond ((member upstream '("ended" "already ended")) "logged out")
                                       ((equal upstream "no session") "not logged in")
                                       (t (format "logged out; upstream: %s" upstream))))))
                    (lambda (error) (onthemap--report error "logout"))))

;;;; The map

(defface onthemap-land '((t :inherit font-lock-string-face))
  "Land on the map (style code l).")
(defface onthemap-coast '((t :inherit font-lock-builtin-face))
  "Coasts and borders on the map (style code b).")
(defface onthemap-pin '((t :inherit warning))
  "A student's pin on the map (style code p).")
(defface onthemap-my-pin '((t :inherit error))
  "Your own pin on the map (style code m).")
(defface onthemap-cluster '((t :inherit font-lock-keyword-face))
  "A cell with several pins (style code c).")

(defconst onthemap--style-faces
  '((?l . onthemap-land) (?b . onthemap-coast) (?p . onthemap-pin)
    (?m . onthemap-my-pin) (?c . onthemap-cluster))
  "Style code of a map cell → face.  Water (a space) has none.")

(defconst onthemap-no-map-method
  "this onthemapd cannot draw maps yet (it has no `map' method): update onthemapd, then try again."
  "What `onthemap-map' says when the daemon has no `map' method.")

(defvar-local onthemap--map-view nil
  "The view params this map buffer asks for.")

(defvar-local onthemap--map-pins nil
  "The pins of the map shown, as the daemon numbered them.")

(defvar onthemap-map-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'onthemap-map-open-pin)
    (define-key map (kbd "g") #'revert-buffer)
    map)
  "Keys of `onthemap-map-mode'.")

(define-derived-mode onthemap-map-mode special-mode "OnTheMap-Map"
  "The map of OnTheMap as the daemon draws it, and the pins in view.
\\<onthemap-map-mode-map>\\[onthemap-map-open-pin] opens the link of the pin at point (on the map or its line);
\\[revert-buffer] draws the map again.

\\{onthemap-map-mode-map}"
  (setq-local revert-buffer-function (lambda (&rest _) (onthemap--map-fetch (current-buffer))))
  (setq truncate-lines t))

(defun onthemap--paint-row (row styles)
  "Insert ROW with the faces of STYLES, one style code per character."
  (let ((start (point)))
    (insert (onthemap--clean row))
    (dotimes (i (min (length styles) (- (point) start)))
      (when-let ((face (alist-get (aref styles i) onthemap--style-faces)))
        (put-text-property (+ start i) (+ start i 1) 'face face)))
    (insert "\n")))

(defun onthemap-map-render (buffer result)
  "Paint the `map' RESULT (rows, styles, pins, view) into BUFFER."
  (with-current-buffer buffer
    (let ((inhibit-read-only t)
          (rows (plist-get result :rows))
          (styles (plist-get result :styles))
          (pins (append (plist-get result :pins) nil)))
      (erase-buffer)
      (dotimes (i (length rows))
        (onthemap--paint-row (aref rows i) (if (< i (length styles)) (aref styles i) "")))
      (insert "\n" (propertize (if pins (format "%d pins in view (RET on a pin or its line opens its link)" (length pins))
                                 "No pin in view.")
                               'face 'shadow)
              "\n")
      (dolist (pin pins)
        (insert (propertize (format "%4s  %-28s %-30s %s"
                                    (or (plist-get pin :n) "")
                                    (concat (onthemap--name pin) (if (onthemap--true-p (plist-get pin :mine)) " (you)" ""))
                                    (onthemap--clean (plist-get pin :mapString))
                                    (onthemap--clean (plist-get pin :mediaURL)))
                            'onthemap-pin pin)
                "\n"))
      (setq onthemap--map-pins pins)
      (goto-char (point-min)))))

(defun onthemap--map-fetch (buffer)
  "Ask the daemon for the map sized to BUFFER's window, and paint it."
  (let* ((window (get-buffer-window buffer))
         (width (if window (window-body-width window) 80))
         (height (if window (window-body-height window) 24))
         (params (append (list :width (max 10 (min 1000 (1- width)))
                               :height (max 5 (min 1000 (- height 2))))
                         (buffer-local-value 'onthemap--map-view buffer))))
    (onthemap-request
     'map params
     (lambda (result) (when (buffer-live-p buffer) (onthemap-map-render buffer result)))
     (lambda (error)
       (let ((error (if (eql (plist-get error :code) -32601) (list :message onthemap-no-map-method) error)))
         (when (buffer-live-p buffer)
           (with-current-buffer buffer
             (let ((inhibit-read-only t))
               (erase-buffer)
               (insert "OnTheMap: " (plist-get error :message) "\n\ng tries again, q closes.\n"))))
         (onthemap--report error "map"))))))

;;;###autoload
(defun onthemap-map (&optional view)
  "Show the map of the students, drawn by the daemon to fit the window.
VIEW is a plist passed to the daemon's `map' method, such as
\(:fit \"pins\") or (:near \"Paris\" :radiusKm 500); interactively,
with a prefix argument, ask for a place to centre on."
  (interactive
   (list (when current-prefix-arg
           (let ((place (read-string "Map near (place or lat,lon): ")))
             (unless (string-empty-p place) (list :near place))))))
  (let ((buffer (get-buffer-create "*OnTheMap map*")))
    (pop-to-buffer-same-window buffer)
    (onthemap-map-mode)
    (setq onthemap--map-view view)
    (let ((inhibit-read-only t)) (erase-buffer) (insert "Drawing the map…\n"))
    (onthemap--map-fetch buffer)
    buffer))

(defun onthemap-map-open-pin ()
  "Open the link of the pin at point: on its legend line or its map cell."
  (interactive)
  (let* ((pin (get-text-property (point) 'onthemap-pin))
         (row (1- (line-number-at-pos)))
         (col (current-column))
         (here (or (and pin (list pin))
                   (seq-filter (lambda (p) (and (eql (plist-get p :row) row) (eql (plist-get p :col) col)))
                               onthemap--map-pins))))
    (cond ((null here) (message "OnTheMap: no pin here"))
          ((null (cdr here)) (onthemap-open-link (plist-get (car here) :mediaURL)))
          (t (let* ((choices (mapcar (lambda (p) (cons (format "%s, %s" (onthemap--name p) (onthemap--clean (plist-get p :mapString))) p))
                                     here))
                    (choice (completing-read "Which student? " choices nil t)))
               (onthemap-open-link (plist-get (cdr (assoc choice choices)) :mediaURL)))))))

;;;; The mode line

(defvar onthemap-status-mode)

(defvar onthemap--status nil
  "The daemon's last `status' result, or nil.")

(defvar onthemap--status-state 'idle
  "The subscription: `idle', `connecting', `online' or `offline'.")

(defvar onthemap--status-connection nil
  "The connection subscribed to `statusChanged'.")

(defvar onthemap--status-timer nil
  "The timer that reconnects the subscription.")

(defvar onthemap--status-delay nil
  "Seconds before the next reconnection.")

(defvar onthemap--status-watch-timer nil
  "The timer that looks for a new socket file, while the daemon is offline.")

(defvar onthemap--status-sockets nil
  "Each socket path and its file's identity when last looked at, while offline.")

(defvar onthemap--status-soon nil
  "Non-nil when the attempt under way followed a new socket file.
If it fails (the daemon has bound its socket but does not listen
yet), the next comes soon, not after the delay.")

(defvar onthemap--mode-line '(:eval (onthemap-status-string))
  "What `onthemap-status-mode' adds to `global-mode-string'.")
(put 'onthemap--mode-line 'risky-local-variable t)

(defun onthemap-status-string ()
  "Return the status for the mode line: \"📍 100 · Munich\", \"📍 offline\"."
  (let ((status onthemap--status)
        (icon onthemap-mode-line-icon))
    (cond ((eq onthemap--status-state 'offline) (concat " " icon " offline"))
          ((null status) (concat " " icon " …"))
          ((not (onthemap--true-p (plist-get status :loggedIn))) (concat " " icon " logged out"))
          (t (let* ((students (plist-get status :students))
                    (place (plist-get (plist-get status :myPin) :mapString)))
               (concat " " icon " " (number-to-string (or (plist-get students :count) 0))
                       (if place (concat " · " (onthemap--clean place)) "")
                       (if (onthemap--true-p (plist-get students :stale)) " (stale)" "")))))))

(defun onthemap--status-set (state status)
  "Record the subscription's STATE and the daemon's STATUS; redraw mode lines."
  (setq onthemap--status-state state
        onthemap--status status)
  (force-mode-line-update t)
  (run-hooks 'onthemap-status-hook))

(defvar onthemap-status-hook nil
  "Run after the status shown by `onthemap-status-mode' changes.")

(defun onthemap--status-retry ()
  "Mark the daemon offline and try again later, waiting longer each time.
Meanwhile a new socket file is looked for each second, so a daemon
that starts is seen at once."
  (setq onthemap--status-connection nil)
  (when onthemap-status-mode
    (unless (eq onthemap--status-state 'offline) (onthemap--status-set 'offline nil))
    (when (timerp onthemap--status-timer) (cancel-timer onthemap--status-timer))
    (setq onthemap--status-timer (run-at-time (if onthemap--status-soon 0.25 onthemap--status-delay)
                                              nil #'onthemap--status-connect))
    (setq onthemap--status-soon nil
          onthemap--status-delay (min 30 (* 2 onthemap--status-delay)))
    (onthemap--status-watch)))

(defun onthemap--status-unwatch ()
  "Stop looking for a new socket file."
  (when (timerp onthemap--status-watch-timer) (cancel-timer onthemap--status-watch-timer))
  (setq onthemap--status-watch-timer nil
        onthemap--status-sockets nil
        onthemap--status-soon nil))

(defun onthemap--socket-identity (path)
  "The inode and modification time of the file at PATH, or nil."
  (when-let ((attributes (file-attributes path)))
    (cons (file-attribute-inode-number attributes) (file-attribute-modification-time attributes))))

(defun onthemap--status-watch ()
  "Look once a second for a socket file made since the daemon went offline.
A daemon that starts binds its socket, a new file: then connect at
once and start the delays over, instead of waiting out the delay.
\(A stat a second, not file notifications: those reach Lisp only
through the command loop, which `emacs --batch' has not.)"
  (unless onthemap--status-watch-timer
    (setq onthemap--status-sockets
          (mapcar (lambda (path) (cons path (onthemap--socket-identity path))) (onthemap-socket-candidates)))
    (setq onthemap--status-watch-timer (run-at-time 1 1 #'onthemap--status-look))))

(defun onthemap--status-look ()
  "Connect now if a socket file is new since last looked at.
The look goes on until a connection is made, so a change during a
failed attempt is not missed."
  (let ((now (mapcar (lambda (known) (cons (car known) (onthemap--socket-identity (car known))))
                     onthemap--status-sockets)))
    (when (and onthemap-status-mode (null onthemap--status-connection)
               (cl-some (lambda (before after) (and (cdr after) (not (equal (cdr before) (cdr after)))))
                        onthemap--status-sockets now))
      (setq onthemap--status-sockets now
            onthemap--status-soon t
            onthemap--status-delay onthemap-reconnect-delay)
      (when (timerp onthemap--status-timer) (cancel-timer onthemap--status-timer))
      (onthemap--status-connect))))

(defun onthemap--status-connect ()
  "Open the subscription.
Subscribe to status changes, then ask for the status."
  (setq onthemap--status-timer nil)
  (when onthemap-status-mode
    (condition-case nil
        (let ((connection
               (onthemap--connect "status"
                                  (lambda (method params)
                                    (when (eq method 'statusChanged) (onthemap--status-set 'online params)))
                                  (lambda (connection)
                                    (when (eq connection onthemap--status-connection)
                                      (onthemap--later #'onthemap--status-retry))))))
          (setq onthemap--status-connection connection)
          (onthemap--status-unwatch)
          (jsonrpc-async-request connection 'subscribe '(:events ["status"]) :timeout onthemap-timeout
                                 :timeout-fn (lambda () (onthemap--status-drop connection)))
          (jsonrpc-async-request connection 'status nil :timeout onthemap-timeout
                                 :success-fn (lambda (status)
                                               (setq onthemap--status-delay onthemap-reconnect-delay)
                                               (onthemap--status-set 'online status))
                                 :error-fn (lambda (_) (onthemap--status-drop connection))
                                 :timeout-fn (lambda () (onthemap--status-drop connection))))
      (error (onthemap--status-retry)))))

(defun onthemap--status-drop (connection)
  "Close CONNECTION, a daemon that does not answer; its shutdown retries."
  (onthemap--close connection))

;;;###autoload
(define-minor-mode onthemap-status-mode
  "Show OnTheMap's status in the mode line, kept current by the daemon.
The mode line shows the number of students and your pin's place,
\"logged out\", or \"offline\" while the daemon cannot be reached
\(it reconnects by itself, within a second when a daemon starts and
binds its socket)."
  :global t
  :group 'onthemap
  (if onthemap-status-mode
      (progn
        (unless global-mode-string (setq global-mode-string '("")))
        (unless (listp global-mode-string) (setq global-mode-string (list global-mode-string)))
        (add-to-list 'global-mode-string 'onthemap--mode-line t)
        (setq onthemap--status-delay onthemap-reconnect-delay)
        (onthemap--status-set 'connecting nil)
        (onthemap--status-connect))
    (setq global-mode-string (delq 'onthemap--mode-line global-mode-string))
    (onthemap--status-unwatch)
    (when (timerp onthemap--status-timer) (cancel-timer onthemap--status-timer))
    (let ((connection onthemap--status-connection))
      (setq onthemap--status-connection nil)
      (when connection (onthemap--close connection)))
    (onthemap--status-set 'idle nil)))

(provide 'onthemap)
;;; onthemap.el ends here
