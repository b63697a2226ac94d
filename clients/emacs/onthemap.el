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

(require 'browse-url)
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

(defcustom onthemap-cli-program "onthemap"
  "The `onthemap' command, which knows how onthemapd is started here.
When the daemon cannot be reached, `onthemap status' is run (with
`--socket' when `onthemap-socket' names one) and its advice shown:
a systemd user manager or none, the demo's way, the API in use.  When
it cannot be run, the package's own general advice is shown."
  :type '(choice (const :tag "None" nil) string))

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

(define-error 'onthemap-refused "The onthemapd there is another user's" 'onthemap-unreachable)

(defun onthemap--use-your-own ()
  "How to use your own daemon, by where the socket path came from.
The path is `onthemap-socket', $ONTHEMAP_SOCKET or the default rule."
  (let ((env (getenv "ONTHEMAP_SOCKET")))
    (cond ((and onthemap-socket (not (string-empty-p onthemap-socket)))
           "To use your own, set `onthemap-socket' to your own daemon's socket, or to nil.")
          ((and env (not (string-empty-p env)))
           "To use your own, unset $ONTHEMAP_SOCKET, or set it (or `onthemap-socket') to your own daemon's socket.")
          (t "To use your own, set `onthemap-socket' or $ONTHEMAP_SOCKET to your own daemon's socket."))))

(defun onthemap--refused-message (path uid)
  "Why the daemon at PATH is not yours: it belongs to UID, another user.
UID is nil when not known.  No advice to start one: it is running."
  (format "the onthemapd at %s belongs to another user%s, so it is not yours. %s"
          path (if uid (format " (uid %d)" uid) "") (onthemap--use-your-own)))

(defun onthemap--socket-owner (path)
  "The uid the file at PATH belongs to, or nil when it cannot be looked at."
  (file-attribute-user-id (file-attributes path 'integer)))

(defun onthemap--other-user (path)
  "The uid of another user whose socket at PATH may not be opened, or nil.
Connecting failed; when the file is another user's (root's included)
and not writable by you (its 0600 mode, as the daemon makes it), the
daemon there is running and not yours: not one to start."
  (let ((uid (onthemap--socket-owner path)))
    (and uid (/= uid (user-uid)) (file-exists-p path) (not (file-writable-p path)) uid)))

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
What to do comes first, then the paths tried, as the CLI says it.
Its advice is general: `onthemap-request' shows the `onthemap' CLI's
instead, which knows this machine (`onthemap--cli-advice'), and this
only when the CLI cannot be run.  One path tried is one named by hand
\(the defaults are at least two); the path in the advice is quoted for
a shell."
  (format "cannot reach onthemapd. %s Tried %s."
          (if (cdr attempts)
              "Start onthemapd: onthemapd(1) says how."
            (format "Start one with `onthemapd --socket %s'." (onthemap--shell-quote (caar attempts))))
          (mapconcat (lambda (a) (format "%s (%s)" (car a) (cdr a))) attempts "; ")))

(defconst onthemap--cli-advice-limit 5
  "Seconds `onthemap status' may take to say why it cannot reach the daemon.")

(defun onthemap--cli-line (text)
  "Return the last line of TEXT that begins \"onthemap: \", without it, or nil."
  (let ((line nil))
    (dolist (candidate (split-string text "\n" t))
      (when (string-match "\\`onthemap: \\(.*[^[:space:]].*\\)" candidate)
        (setq line (string-trim (match-string 1 candidate)))))
    (and line (onthemap--clean line))))

(defun onthemap--cli-command ()
  "The `onthemap status' command line, with `--socket' for `onthemap-socket'.
$ONTHEMAP_SOCKET reaches the CLI through the environment."
  (append (list onthemap-cli-program "status")
          (when (and onthemap-socket (not (string-empty-p onthemap-socket)))
            (list "--socket" onthemap-socket))))

(defun onthemap--cli-advice (callback)
  "Run `onthemap status' and call CALLBACK with its line, or nil.
The line is what the CLI prints on stderr when it cannot reach the
daemon either (`onthemap: WHAT HAPPENED.  ADVICE'), without the prefix:
one advice for the CLI, both editors and the bars.  CALLBACK gets nil
when the CLI cannot be run, reaches a daemon, or says nothing of use."
  (let* ((buffer (generate-new-buffer " *onthemap-advice*" t))
         (done nil)
         (finish (lambda (text)
                   (unless done
                     (setq done t)
                     (when (buffer-live-p buffer) (kill-buffer buffer))
                     (onthemap--later callback text)))))
    (condition-case nil
        (let* (;; The line is read, not shown: no colour in it.
               (process-environment (cons "NO_COLOR=1" process-environment))
               (process
                (make-process
                 :name "onthemap-advice" :buffer buffer :command (onthemap--cli-command)
                 :connection-type 'pipe :noquery t
                 :sentinel (lambda (process _event)
                             (unless (process-live-p process)
                               (funcall finish (and (/= 0 (process-exit-status process))
                                                    (buffer-live-p buffer)
                                                    (onthemap--cli-line (with-current-buffer buffer
                                                                          (buffer-string))))))))))
          (run-at-time onthemap--cli-advice-limit nil
                       (lambda ()
                         (when (process-live-p process) (delete-process process))
                         (funcall finish nil))))
      (error (funcall finish nil)))))

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
belongs to another user (then nothing is sent); `onthemap-refused'
when the socket is another user's and may not be opened."
  (let ((attempts nil) (process nil))
    (cl-loop for path in (onthemap-socket-candidates)
             until process
             do (when-let ((owner (onthemap--foreign-owner path)))
                  (signal 'onthemap-refused
                          (list (format "refusing the socket %s: it belongs to uid %d, not to you or root, so it is not your onthemapd (another user may be impersonating it). Nothing was sent. Remove it, and use a private directory (XDG_RUNTIME_DIR)."
                                        path owner))))
             (condition-case err
                 ;; Decoded as UTF-8 into Emacs's internal form, whose bytes jsonrpc counts
                 ;; against Content-Length (as eglot does); `binary' breaks on "München".
                 (setq process (make-network-process :name name :family 'local :service path
                                                     :coding 'utf-8-emacs-unix :noquery t))
               (error (when-let ((uid (onthemap--other-user path)))
                        (signal 'onthemap-refused (list (onthemap--refused-message path uid))))
                      (push (cons path (if (stringp (nth 2 err)) (nth 2 err) (error-message-string err)))
                            attempts))))
    (or process
        (signal 'onthemap-unreachable (list (onthemap--unreachable-message (setq attempts (nreverse attempts)))
                                            attempts)))))

(defvar onthemap--connections-opened 0
  "How many connections were opened: each gets its own name and buffers.")

(defvar onthemap--processes (make-hash-table :test #'eq :weakness 'key)
  "The network process under each connection, made here and so known here.
jsonrpc has no public accessor for a connection's process.")

(defun onthemap--process (connection)
  "The network process CONNECTION talks over."
  (gethash connection onthemap--processes))

(defun onthemap--make-connection (&rest initargs)
  "Make a `jsonrpc-process-connection' with INITARGS and no events buffer.
That buffer would record every message, a password included.
jsonrpc 1.0.18 and later name the setting `:events-buffer-config';
Emacs 28's jsonrpc (1.0.14) knows only the name it had before, which
is given only where the current one is refused."
  (condition-case nil
      (apply #'make-instance 'jsonrpc-process-connection :events-buffer-config '(:size 0) initargs)
    (invalid-slot-name
     (apply #'make-instance 'jsonrpc-process-connection :events-buffer-scrollback-size 0 initargs))))

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
          (onthemap--make-connection
           :name name :process process
           :notification-dispatcher
           (lambda (_connection method params)
             (when on-notification (funcall on-notification method params)))
           :on-shutdown
           (lambda (connection)
             (onthemap--discard-buffers connection)
             (when on-shutdown (funcall on-shutdown connection))))))
    (puthash connection process onthemap--processes)
    (set-process-filter process (onthemap--refusal-filter process (onthemap--nul-safe-filter (process-filter process))))
    ;; jsonrpc announces every closed connection ("Server exited"); a daemon
    ;; closing an idle connection is routine, so that message is kept quiet.
    (let ((sentinel (process-sentinel process)))
      (set-process-sentinel process
                            (lambda (proc change)
                              (let ((inhibit-message t) (message-log-max nil))
                                (funcall sentinel proc change)))))
    connection))

(defun onthemap--without-nul-escapes (text)
  "TEXT, JSON, with each escape \\u0000 written \\uFFFD instead.
Emacs's JSON parser refuses a NUL (\"\\u0000 is not allowed without
JSON_ALLOW_NUL\"), and jsonrpc then drops the whole answer: one name
with a NUL in it, from anyone, would leave every list unanswered.  A
NUL would be shown as U+FFFD anyway (`onthemap--clean'); the escape
keeps its length, so the Content-Length framing still holds.  A
backslash run of odd length ends in the escape's own backslash."
  (replace-regexp-in-string
   "\\(\\\\+\\)u0000"
   (lambda (match)
     (if (cl-oddp (length (match-string 1 match)))
         (concat (match-string 1 match) "uFFFD")
       match))
   text t t))

(defun onthemap--nul-safe-filter (filter)
  "Return FILTER (jsonrpc's) behind one that rewrites \\u0000 escapes.
See `onthemap--without-nul-escapes'.  A chunk's trailing backslashes,
with what may begin an escape after them, wait for the next chunk, so
an escape cut in two is seen whole."
  (let ((pending ""))
    (lambda (process chunk)
      (let* ((text (concat pending chunk))
             (cut (or (string-match "\\\\+\\(?:u0\\{0,3\\}\\)?\\'" text) (length text))))
        (setq pending (substring text cut))
        (funcall filter process (onthemap--without-nul-escapes (substring text 0 cut)))))))

(defconst onthemap--refused-code -32010
  "The daemon's error code for a client of another user.
It says so (id null, one JSON line) and ends its side of the
connection; a request written after that is still taken, unread.")

(defun onthemap--refusal-filter (process filter)
  "Return FILTER behind one that notes a refusal on PROCESS.
A daemon of another user answers a new connection with one JSON line,
an error of id null and code `onthemap--refused-code', then ends its
side.  That line has no Content-Length header, so jsonrpc would not
read it: it is looked for here, in what comes before any header, and
the process is marked `onthemap-refused' (`onthemap--refused-p')."
  (let ((pending ""))
    (lambda (proc chunk)
      (when pending
        (setq pending (concat pending chunk))
        (cond ((string-prefix-p "Content-Length" pending) (setq pending nil))
              ((string-match "\\`\\({.*\\)\n" pending)
               (let ((answer (ignore-errors
                               (json-parse-string (match-string 1 pending) :object-type 'plist
                                                  :null-object nil :false-object nil))))
                 (when (and answer (null (plist-get answer :id))
                            (eql (plist-get (plist-get answer :error) :code) onthemap--refused-code))
                   (process-put process 'onthemap-refused t)))
               (setq pending nil))))
      (funcall filter proc chunk))))

(defun onthemap--refused-p (connection)
  "Whether the daemon at CONNECTION said it is another user's."
  (let ((process (and connection (onthemap--process connection))))
    (and process (process-get process 'onthemap-refused))))

(defun onthemap--refused-error (connection)
  "The error plist for CONNECTION, refused by another user's daemon."
  (let ((path (process-contact (onthemap--process connection) :service)))
    (list :kind 'refused :code onthemap--refused-code
          :message (onthemap--refused-message path (onthemap--socket-owner path)))))

(defun onthemap--discard-buffers (connection)
  "Kill the helper buffers jsonrpc made for CONNECTION."
  (let ((process (onthemap--process connection)))
    (dolist (buffer (list (and process (process-buffer process))
                          (jsonrpc-stderr-buffer connection)
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
    (delete-process (onthemap--process connection))))

(defun onthemap--later (function &rest arguments)
  "Call FUNCTION with ARGUMENTS from a timer, outside process sentinels.
jsonrpc may call back from a sentinel where messages are silenced."
  (when function (apply #'run-at-time 0 nil function arguments)))

(defvar onthemap--signal-refusal
  (lambda (text) (signal 'user-error (list text)))
  "Signal `user-error' with TEXT, from a function that has no name.
The command loop logs an error in *Messages* after the name of the
function that signalled it (\"cond: OnTheMap: ...\", \"progn: ...\"
when `user-error' is called from a form of the command; the
function's own name once compiled).  An anonymous function has none:
the sentence is logged alone, as it is shown.")

(defun onthemap--refuse (format &rest args)
  "End the command with a `user-error' saying FORMAT with ARGS.
As `user-error' does (with `format-message'), but *Messages* holds
the sentence alone, without a Lisp word before it
\(`onthemap--signal-refusal').  Every refusal of the package goes
through here."
  (funcall onthemap--signal-refusal (apply #'format-message format args)))

(defconst onthemap--not-logged-in -32001
  "The daemon's error code for a call that needs a login.")

(defconst onthemap--invalid-credentials -32002
  "The daemon's error code for an email and password the server refused.")

(defconst onthemap--invalid-url -32008
  "The daemon's error code for a link that is not a web link.")

(defconst onthemap--session-over -32007
  "The daemon's error code for a session that expired or was revoked.")

(defun onthemap--needs-login-p (error)
  "Whether ERROR (a plist) means there is no session: a login fixes it."
  (memq (plist-get error :code) (list onthemap--not-logged-in onthemap--session-over)))

(defconst onthemap--version-mismatch
  "this package and onthemapd may be of different versions: update both (`onthemapd --version' names its own)"
  "Why onthemapd would not read a request: the package checks what is typed.")

(defun onthemap--in-emacs-words (code message)
  "The daemon's MESSAGE for error CODE, in Emacs's words.
The daemon tells a CLI user to run `onthemap login'; in Emacs that is
\[onthemap-login].  A request it could not read is said in words, not
in the protocol's (\"Invalid params: query is required.\").  Other
messages are returned as they are."
  (let ((message (or message "")))
    (cond ((eql code onthemap--not-logged-in) "Not logged in: run M-x onthemap-login first.")
          ((eql code onthemap--session-over)
           (concat (replace-regexp-in-string "[[:space:].]*\\'" "" message) " with M-x onthemap-login."))
          ((and (eql code onthemap--invalid-credentials)
                (string-prefix-p "Account not found or invalid credentials" message))
           ;; The CLI's advice (CLIFailure), with Emacs's command.
           (concat (replace-regexp-in-string "[[:space:].]*\\'" "" message)
                   ": check the email and password, then run M-x onthemap-login again."))
          ((eql code -32602) (concat "onthemapd did not accept what Emacs sent: " onthemap--version-mismatch))
          ((memql code '(-32700 -32600 -32601))
           (concat "onthemapd did not understand what Emacs sent: " onthemap--version-mismatch))
          ((eql code -32603)
           (format "onthemapd failed (%s); its log says more"
                   (replace-regexp-in-string "[[:space:].]*\\'" ""
                                             (string-remove-prefix "Internal error: " message))))
          (t message))))

(defun onthemap--report (error &optional doing)
  "Show ERROR, a plist with :message, in the echo area.
DOING, if non-nil, names what failed.  The message may quote anyone's
text: it is shown cleaned."
  (message "OnTheMap: %s%s" (if doing (concat doing ": ") "") (onthemap--clean (plist-get error :message))))

(defconst onthemap--about
  '((students . "the list") (geocode . "the place lookup") (login . "the login")
    (logout . "the logout") (myPin . "the pin lookup") (postPin . "the post") (map . "the map")
    (status . "the status check") (refresh . "the refresh"))
  "What a request is about, in the user's words (\"postPin\" is the protocol's).")

(defun onthemap--about (method)
  "What a request for METHOD is about, in words."
  (or (alist-get method onthemap--about) (format "%s" method)))

(defun onthemap-request (method params on-success &optional on-error)
  "Call METHOD (a symbol) with PARAMS (a plist or nil) asynchronously.
ON-SUCCESS gets the result.  ON-ERROR (default: a message) gets a
plist (:code :message :data :kind); :kind is `daemon' when the
daemon answered with an error (its own code and message),
`unreachable', `refused' (the daemon there is another user's), `timeout'
or `closed'.  Returns at once."
  (let ((on-error (or on-error #'onthemap--report)))
    (condition-case err
        (let* ((connection (onthemap--request-connection))
               (path (process-contact (onthemap--process connection) :service)))
          (jsonrpc-async-request
           connection method params
           :timeout onthemap-timeout
           :success-fn (lambda (result) (onthemap--later on-success result))
           :error-fn
           (lambda (error)
             (onthemap--later
              on-error
              (cond
               ((onthemap--refused-p connection) (onthemap--refused-error connection))
               ((eql (plist-get error :code) -1)
                (list :kind 'closed :message (format "onthemapd closed the connection before answering %s"
                                                       (onthemap--about method))))
               (t (append (list :kind 'daemon
                                :message (onthemap--in-emacs-words (plist-get error :code) (plist-get error :message)))
                          error)))))
           :timeout-fn
           (lambda ()
             (onthemap--later
              on-error
              (list :kind 'timeout
                    :message (format "onthemapd did not answer %s within %s s (%s)"
                                     (onthemap--about method) onthemap-timeout path))))))
      (onthemap-refused
       ;; Running, but another user's: no advice to start one.
       (onthemap--later on-error (list :kind 'refused :message (cadr err))))
      (onthemap-unreachable
       (let ((error (list :kind 'unreachable :message (cadr err))))
         (if (nth 2 err)
             ;; Nothing answered: how to start it is the CLI's to say.
             (onthemap--cli-advice (lambda (advice)
                                     (funcall on-error (if advice (plist-put error :message advice) error))))
           (onthemap--later on-error error))))
      (error
       (onthemap--later on-error (if (onthemap--refused-p onthemap--connection)
                                     (onthemap--refused-error onthemap--connection)
                                   (list :kind 'closed :message (error-message-string err))))))
    nil))

;;;; Text helpers

(defconst onthemap--space-regexp
  (rx (any ?\t ?\n ?\r #x2028 #x2029))
  "What `onthemap--clean' shows as a space, so a field stays one line.
That is tab, line feed, carriage return, and the line and paragraph
separators U+2028 and U+2029.")

(defconst onthemap--control-regexp
  (rx (any (0 . 31) (127 . 159)))
  "The control characters (C0, DEL, C1): escape sequences, NUL, BEL.
`onthemap--clean' shows each as U+FFFD, but those of
`onthemap--space-regexp'.")

(defconst onthemap--bidi-regexp
  (rx (any #x061c #x200e #x200f (#x202a . #x202e) (#x2066 . #x2069)))
  "The bidi embeddings, overrides, isolates and marks (Bidi_Control).
They reorder what is shown (\"…/\", U+202E, then \"gnp.exe\" reads
\"…/exe.png\"): `onthemap--clean' drops them.")

(defconst onthemap--invisible-regexp
  (rx (any (#x180b . #x180f) (#x200b . #x200f) (#x2060 . #x206f) #xfeff (#xfff9 . #xfffb)
           (#x13430 . #x1343f) (#x1bca0 . #x1bca3) (#x1d173 . #x1d17a) #xe0001 (#xe0020 . #xe007f)))
  "The format characters that show as nothing: `onthemap--clean' drops them.
Unicode's Cf but the soft hyphen and the Arabic number signs (which
are drawn; the CLI's DisplayWidth counts the others no column): the
zero-width space U+200B, the joiners U+200C and U+200D, U+2060 to
U+206F, U+FEFF, the tags of a subdivision flag; and the Mongolian
variation selectors.  On a text terminal Emacs draws each as a space
\(`glyphless-char-display-control': thin-space) that `string-width'
counts as no column, so a row holding one is a column wide of the
others; Neovim draws them \"<200b>\".  The daemon's rule keeps them.")

(defconst onthemap--hidden-regexp
  (concat onthemap--bidi-regexp "\\|" onthemap--invisible-regexp)
  "What `onthemap--clean' drops.
A character of `onthemap--bidi-regexp' or `onthemap--invisible-regexp'.")

(defun onthemap--without-invisible (text)
  "TEXT without the characters of `onthemap--invisible-regexp'.
What `onthemap--clean' shows for text the daemon's rule shows as TEXT."
  (replace-regexp-in-string onthemap--invisible-regexp "" text t t))

(defconst onthemap--unsafe-regexp
  (concat onthemap--space-regexp "\\|" onthemap--control-regexp "\\|" onthemap--bidi-regexp)
  "What must not reach the screen as it is, from another person's text.
Any character of `onthemap--space-regexp', `onthemap--control-regexp'
or `onthemap--bidi-regexp'.")

(defconst onthemap--max-marks 4
  "The most combining marks `onthemap--clean' keeps in a row.
As the daemon's DisplayText.maxMarksInARow: as many as a written
language stacks on a letter (pointed Hebrew with cantillation, four).
\"Zalgo\" text stacks dozens, drawn over the lines around it.")

(defconst onthemap--marks-regexp
  (rx-to-string `(= ,(1+ onthemap--max-marks) (any (#x300 . #x10ffff))) t)
  "Where more than `onthemap--max-marks' combining marks may be in a row.
Characters from U+0300 up, where the first mark is; text without such a
run needs no look-up of a character's category.")

(defun onthemap--combining-mark-p (char)
  "Whether CHAR is a combining mark: Unicode's Mn and Me (accents, vowel points).
As the daemon's DisplayText.isCombiningMark."
  (and (<= #x300 char #x10ffff)
       (memq (get-char-code-property char 'general-category) '(Mn Me))
       t))

(defun onthemap--without-marks-past-max (text)
  "Return TEXT, each run of combining characters cut to `onthemap--max-marks'.
Those are Unicode's Mn and Me; the rest of a run is dropped.  They
are counted as the daemon's DisplayText counts them: over TEXT as it
came, so any other character (a control, a bidi control dropped
later) ends a run."
  (if (not (string-match-p onthemap--marks-regexp text))
      text
    (let ((run 0) (kept nil))
      (dolist (char (string-to-list text))
        (setq run (if (onthemap--combining-mark-p char) (1+ run) 0))
        (when (<= run onthemap--max-marks)
          (push char kept)))
      (if (= (length kept) (length text)) text (apply #'string (nreverse kept))))))

(defun onthemap--clean (text)
  "TEXT from another person, safe to show anywhere: buffer, echo area, mode line.
The rule of the CLI, the bars and the web page (the daemon's
DisplayText): a tab, line feed, carriage return, U+2028 or U+2029
becomes a space; any other control character (C0, DEL, C1) becomes
U+FFFD, so that something was there stays visible and does nothing;
a bidi embedding, override, isolate or mark is dropped; so are
combining marks past the fourth in a row (`onthemap--max-marks').
Not a string: \"\".  The one place this is decided;
Tests/Fixtures/display-text.json holds it to the daemon's.
One step more than the daemon's rule, as Neovim takes it too: the
format characters that show as nothing (`onthemap--invisible-regexp':
the zero-width space and joiners, U+FEFF) are dropped, so a row
holding one lines up on a text terminal.  The data stays exact."
  (if (not (stringp text))
      ""
    ;; Bidi controls and invisible ones go before marks are counted, as
    ;; DisplayText drops the bidi ones: the marks either side of one are one run.
    (let ((text (onthemap--without-marks-past-max
                 (replace-regexp-in-string onthemap--hidden-regexp "" text t t))))
      (if (not (string-match-p onthemap--unsafe-regexp text))
          text
        (replace-regexp-in-string
         onthemap--control-regexp "\uFFFD"
         (replace-regexp-in-string onthemap--space-regexp " " text t t)
         t t)))))

(defun onthemap--clean-p (text)
  "Whether TEXT is a string shown as it is, with nothing to clean.
That is, nothing that `onthemap--clean' would replace or drop: a
link that is not is never offered, though it may show no sign of what
was there (a space, or nothing for a bidi control)."
  (and (stringp text) (equal (onthemap--clean text) text)))

(defun onthemap--name (student)
  "The full name of STUDENT (a plist)."
  (onthemap--clean (string-join (delq nil (list (plist-get student :firstName)
                                                (plist-get student :lastName)))
                                " ")))

(defun onthemap--grouped (count)
  "COUNT for a person, grouped by three as the CLI writes it: \"10,000\".
As its CountText.grouped: \"1,234\", \"950\".  Row and pin numbers,
which a person types back, stay bare."
  (let* ((whole (truncate count))
         (digits (number-to-string (abs whole)))
         (groups '()))
    (while (> (length digits) 3)
      (push (substring digits -3) groups)
      (setq digits (substring digits 0 -3)))
    (concat (if (< whole 0) "-" "") (string-join (cons digits groups) ","))))

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
  "A geocoder MATCH as the daemon names it: its label.
That is \"Köln, North Rhine-Westphalia, Germany\".  One rule names a
place everywhere (docs/GEOCODING.md): the daemon's."
  (let ((label (plist-get match :label)))
    (onthemap--clean (if (stringp label) label ""))))

(defun onthemap--true-p (value)
  "Whether the JSON VALUE is true (false arrives as :json-false)."
  (and value (not (eq value :json-false))))

;;;; Opening links

(defun onthemap-open-link (url &optional who dropped)
  "Open URL with `onthemap-browse-function', and say which URL it opens.
A browser started in the background fails out of sight (no display,
none installed).  URL is a student's link as the daemon passes it
on: the daemon decides which links may be opened (http or https, a
host, a port a connection can use, no space, control, bidi or other
invisible character) and empties any other, saying why in DROPPED
\(the student's mediaURLDropped).  WHO, the student's name, says
whose link it refused, in the CLI's words: \"not opening Eve's link:
it holds a hidden character (U+202E)\"."
  (let ((whose (if who (onthemap--clean who) "")))
    (cond ((and (or (not (stringp url)) (string-empty-p url))
                (stringp dropped) (not (string-empty-p (onthemap--clean dropped))))
           (message "OnTheMap: not opening %s: %s"
                    (if (string-empty-p whose) "the link" (concat whose "'s link"))
                    (onthemap--truncate (onthemap--clean dropped) 100)))
          ((or (not (stringp url)) (string-empty-p url))
           (message "OnTheMap: %s has no web link to open" (if (string-empty-p whose) "this student" whose)))
          ((onthemap--browse-url-uses-xdg-open-p url)
           (message "OnTheMap: opening %s (with xdg-open)" url)
           (onthemap--xdg-open url))
          (t
           (condition-case err
               (let ((before (process-list)))
                 (message "OnTheMap: opening %s (with %s)" url
                          (if (symbolp onthemap-browse-function) onthemap-browse-function "a function"))
                 (funcall onthemap-browse-function url)
                 ;; A browser started in the background that fails says so, with the link.
                 (dolist (process (process-list))
                   (unless (or (memq process before) (not (eq (process-type process) 'real)))
                     (add-function :after (process-sentinel process)
                                   (lambda (process _event) (onthemap--opener-exited process url))))))
             (error (message "OnTheMap: could not open %s: %s; see `onthemap-browse-function'"
                             url (onthemap--clean (error-message-string err)))))))))

(defun onthemap--browse-url-uses-xdg-open-p (url)
  "Whether `onthemap-browse-function' would hand URL to xdg-open.
`browse-url' runs it with `call-process' and no wait, so its failure
\(no browser set up: exit 3) is never seen; this package runs it
itself instead, as the Neovim plugin and `onthemap open' do."
  (and (eq onthemap-browse-function #'browse-url)
       (not (and (fboundp 'browse-url-select-handler) (browse-url-select-handler url)))
       (or (eq browse-url-browser-function #'browse-url-xdg-open)
           (and (eq browse-url-browser-function #'browse-url-default-browser)
                (browse-url-can-use-xdg-open)))))

(defun onthemap--xdg-open (url)
  "Open URL with xdg-open, and say so if it fails, with the link.
Its output goes nowhere: a pipe on it would be inherited by the
browser it starts, which dies of SIGPIPE writing to it once xdg-open
has exited."
  (condition-case err
      (make-process :name "onthemap-xdg-open" :buffer nil :noquery t :connection-type 'pipe
                    :command (list "sh" "-c" "exec xdg-open \"$1\" >/dev/null 2>&1 </dev/null" "sh" url)
                    :sentinel (lambda (process _event) (onthemap--opener-exited process url "xdg-open")))
    (error (message "OnTheMap: cannot run xdg-open (%s): open %s yourself"
                    (onthemap--clean (error-message-string err)) url))))

(defun onthemap--opener-exited (process url &optional name)
  "Say why PROCESS, started to open URL, failed, if it exited so.
NAME is the program's, if not its command's first word.
The link is in the message (and *Messages*), to open by hand: over
ssh there is no browser.  xdg-open's exit 3 is the CLI's \"no browser\"."
  (when (and (memq (process-status process) '(exit signal))
             (not (eql (process-exit-status process) 0)))
    (let ((code (process-exit-status process)))
      (message (if (and (eql code 3) (eq (process-status process) 'exit))
                   "OnTheMap: no browser: open %s yourself"
                 (format "OnTheMap: could not open %%s (%s exited with %d): open it in a browser yourself"
                         (or name (file-name-nondirectory (car (process-command process)))) code))
               url))))

(defun onthemap--typed-link (input)
  "The link the user meant by INPUT, trimmed; nil for nothing typed.
With https:// in front only when it names no scheme at all
\(\"example.com/me\"), by the CLI's rule (its PostCommand.typedLink): a
letter, then letters, digits, \"+\", \".\" or \"-\", then a colon
not followed by a digit (\"example.com:8080/me\" is a host and its
port).  A link that names another scheme (\"mailto:me@example.com\",
\"javascript:alert(1)\") stays as typed, for the daemon to refuse
with its reason."
  (let ((link (string-trim (or input ""))))
    (cond ((string-empty-p link) nil)
          ((string-match-p "\\`[[:alpha:]][[:alnum:]+.-]*:\\([^0-9]\\|\\'\\)" link) link)
          (t (concat "https://" link)))))

;;;; The students list

(defvar-local onthemap--search nil
  "In a search list: the words searched for.")

(defvar-local onthemap--near nil
  "In a near list: (LATITUDE LONGITUDE LABEL KM) of the centre, once found.")

(defvar-local onthemap--near-query nil
  "In a near list: (PLACE KM) as asked.
While the place is not found (`onthemap--near' is nil), \\[revert-buffer] looks it up again.")

(defvar-local onthemap--generation 0
  "How many times this list was filled; tests wait for it to move.")

(defvar-local onthemap--shown nil
  "The last `students' result shown in this list, for its summary.")

(defvar-local onthemap--problem nil
  "What the list shows instead of students: (TEXT . FACE), or nil.")

(defvar-local onthemap--fetching 0
  "How many requests for this list are on their way.
While one is, its summary says so.")

(defvar-local onthemap--sent 0
  "How many `students' requests were sent for this list.")

(defvar-local onthemap--floor 0
  "The number of the newest request this list's rows are not older than.
The request whose answer it shows, or the last one sent before a
problem (a logout) emptied it: an answer numbered at or below it is
older than what the list shows, and is dropped.")

(defvar-local onthemap--summary-overlay nil
  "The overlay at the start of the list: its summary line.")

(defvar-local onthemap--laid-out-width nil
  "The width in columns a list's columns, or a map's legend, were laid out for.")

(defvar-local onthemap--laid-out-sort nil
  "The `tabulated-list-sort-key' a list's columns were laid out for.
Sorted by Place or Link, a narrow list keeps that column.")

(defvar-local onthemap--follow nil
  "In a list or a map: (RELOAD . CLEAR), functions of no argument.
RELOAD fills it after a login, CLEAR empties it after a logout.")

(defvar-local onthemap--needs-login nil
  "Non-nil while this list or map waits for a login to be filled.")

(defvar-local onthemap--needs-daemon nil
  "Non-nil while this list or map waits for onthemapd to answer again.
It could not be filled because the daemon did not answer (not running,
hung, gone mid-request); the status subscription's next word from the
daemon fills it, as `onthemap map -i' draws its map again.")

(defun onthemap--note-failure (buffer error)
  "Record in BUFFER what ERROR waits for: a login, or the daemon's return."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (cond ((onthemap--needs-login-p error) (setq onthemap--needs-login t))
            ((not (eq (plist-get error :kind) 'daemon)) (setq onthemap--needs-daemon t))))))

(defvar onthemap-students-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'onthemap-open-student-link)
    ;; What else a list reaches, as elfeed's search buffer does (y, s): n and p stay
    ;; `tabulated-list-mode''s line motion, so post and near take P and N.
    (define-key map (kbd "y") #'onthemap-copy-student-link)
    (define-key map (kbd "P") #'onthemap-post)
    (define-key map (kbd "s") #'onthemap-search)
    (define-key map (kbd "N") #'onthemap-near)
    (define-key map (kbd "m") #'onthemap-map)
    (define-key map (kbd "g") #'revert-buffer)
    (define-key map (kbd "S") #'onthemap-sort)
    ;; A short list of these, as magit's ? is; h is still `describe-mode', every key.
    (define-key map (kbd "?") #'onthemap-list-help)
    map)
  "Keys of `onthemap-students-mode'.")

;; The summary's age changes with time, not with the list, and Emacs redraws only
;; when something changes: one timer, as `display-time' keeps one, brings the
;; lists' summaries up to date while a list lives.

(defvar onthemap--header-timer nil
  "The timer bringing the lists' summaries up to date, while a list lives.")

(defun onthemap--list-buffers (&optional except)
  "The live students lists, leaving out EXCEPT."
  (seq-filter (lambda (buffer)
                (and (not (eq buffer except))
                     (provided-mode-derived-p (buffer-local-value 'major-mode buffer)
                                              'onthemap-students-mode)))
              (buffer-list)))

(defun onthemap--header-timer-stop ()
  "Cancel the timer of the summaries."
  (when (timerp onthemap--header-timer) (cancel-timer onthemap--header-timer))
  (setq onthemap--header-timer nil))

(defun onthemap--header-tick ()
  "Bring the summary of each students list up to date; stop when none is left."
  (if-let ((lists (onthemap--list-buffers)))
      (dolist (buffer lists)
        (with-current-buffer buffer (onthemap--update-summary)))
    (onthemap--header-timer-stop)))

(defun onthemap--header-timer-start ()
  "Start the timer of the summaries if none is running.
It fires every `onthemap-header-update-interval' seconds, when that is set."
  (when (and (numberp onthemap-header-update-interval) (> onthemap-header-update-interval 0)
             (not (timerp onthemap--header-timer)))
    (setq onthemap--header-timer (run-at-time onthemap-header-update-interval onthemap-header-update-interval
                                              #'onthemap--header-tick))))

(defun onthemap--list-gone ()
  "Stop the timers and the subscription if this buffer was the last to need them.
Run from `kill-buffer-hook' and `change-major-mode-hook' in a list."
  (unless (onthemap--list-buffers (current-buffer))
    (onthemap--header-timer-stop))
  (onthemap--status-release (current-buffer)))

(define-derived-mode onthemap-students-mode tabulated-list-mode "OnTheMap"
  "The students of OnTheMap, newest first or nearest first.
The column titles are in the header line (click one, or \\<onthemap-students-mode-map>\\[onthemap-sort] on a
column, to sort by it); the first line says how many students and how
fresh.  \\[onthemap-open-student-link] opens the student's link, \\[onthemap-copy-student-link] copies it, \\[revert-buffer] fetches the list again.
\\[onthemap-post] posts or moves your pin, \\[onthemap-search] searches, \\[onthemap-near] lists the students near a
place, \\[onthemap-map] shows the map; \\[onthemap-list-help] lists these keys.
The list empties when you log out and fills again when you log in.

\\{onthemap-students-mode-map}"
  (setq-local revert-buffer-function #'onthemap--revert)
  (setq tabulated-list-use-header-line t)
  (setq tabulated-list-padding 1)
  (setq tabulated-list-printer #'onthemap--print-entry)
  (add-hook 'kill-buffer-hook #'onthemap--list-gone nil t)
  (add-hook 'change-major-mode-hook #'onthemap--list-gone nil t)
  ;; A click on a column title sorts without a command of ours: the summary and the
  ;; columns follow it.
  (add-hook 'post-command-hook #'onthemap--update-summary nil t)
  (add-hook 'post-command-hook #'onthemap--list-lay-out-again nil t)
  (add-hook 'window-size-change-functions #'onthemap--list-resized nil t)
  (setq onthemap--follow (cons #'onthemap--list-reload #'onthemap--list-logged-out))
  (onthemap--header-timer-start)
  (onthemap--status-ensure))

(defun onthemap--updated-< (a b)
  "Whether entry A was updated before entry B (for sorting)."
  (string< (or (plist-get (car a) :updatedAt) "") (or (plist-get (car b) :updatedAt) "")))

(defun onthemap--km-< (a b)
  "Whether entry A is nearer than entry B (for sorting)."
  (< (string-to-number (aref (cadr a) 2)) (string-to-number (aref (cadr b) 2))))

(defun onthemap--cell-< (i)
  "A predicate sorting entries by their cell I (Name, Place or Link).
The list's own sort (t) reads the cell at the column's place in the
format, which is another cell once a column is left out: sorted by
Link with Place left out, it compared the places."
  (lambda (a b) (string< (aref (cadr a) i) (aref (cadr b) i))))

(defun onthemap--fit-widths (natural fixed room &optional minimum least)
  "Widths for columns whose widest cells are NATURAL, within ROOM columns.
NATURAL is a list of widths; FIXED a list of the indices (from 0) of
the columns that never give up width.  When the others are too wide
together, they give up width, the widest first, down to MINIMUM (6)
each, or to the column's own in LEAST (a list, nil for MINIMUM).
ROOM is what the columns themselves get: separators left out."
  (let* ((minimum (or minimum 6))
         (flexible (seq-remove (lambda (i) (memq i fixed)) (number-sequence 0 (1- (length natural)))))
         (budget (- room (apply #'+ (mapcar (lambda (i) (nth i natural)) fixed))))
         (widths (copy-sequence natural)))
    (when (> (apply #'+ (mapcar (lambda (i) (nth i natural)) flexible)) budget)
      (let ((left budget)
            (count (length flexible)))
        (dolist (i (sort (copy-sequence flexible) (lambda (a b) (< (nth a natural) (nth b natural)))))
          (let ((width (max (if (nth i least) (min (nth i least) (nth i natural)) minimum)
                            (min (nth i natural) (/ left count)))))
            (setf (nth i widths) width)
            (setq left (- left width)
                  count (1- count))))))
    widths))

(defun onthemap--spare-to-cut (widths wholes room)
  "Return WIDTHS, widened toward WHOLES within ROOM columns.
The columns cut (narrower than their widest cell, in WHOLES) get the
columns left, the least cut first, each an even share of what is
left.  WIDTHS that do not fit ROOM are returned as they are."
  (let* ((widths (copy-sequence widths))
         (left (- room (apply #'+ widths)))
         (cut (sort (cl-loop for width in widths for whole in wholes for i from 0
                             when (and (> width 0) (< width whole)) collect i)
                    (lambda (a b) (< (- (nth a wholes) (nth a widths)) (- (nth b wholes) (nth b widths))))))
         (count (length cut)))
    (when (> left 0)
      (dolist (i cut)
        (let ((more (min (- (nth i wholes) (nth i widths)) (/ left count))))
          (setf (nth i widths) (+ (nth i widths) more))
          (setq left (- left more)
                count (1- count)))))
    widths))

(defun onthemap--natural-widths (rows caps)
  "The width of each column of ROWS (lists of strings): its widest cell.
Each is at most its cap in CAPS, one per column.  With
`onthemap--fit-widths', the layout of the lists and of the map's
legend."
  (cl-loop for cap in caps
           for i from 0
           collect (min cap (apply #'max 0 (mapcar (lambda (row) (string-width (nth i row))) rows)))))

(defun onthemap--list-room ()
  "The columns a line of this list or map has.
That is its narrowest window's, else the frame's."
  (let ((windows (get-buffer-window-list (current-buffer) nil t)))
    (if windows
        (apply #'min (mapcar (lambda (window) (1- (window-max-chars-per-line window))) windows))
      (1- (frame-width)))))

(defvar-local onthemap--columns nil
  "The columns of the entries this list shows, as indices into each entry.
A window too narrow for all leaves Link out, then Place.")

(defconst onthemap--name-least 12
  "The least width of the Name column: \"Ada L… (you)\", the mark whole.")

(defun onthemap--set-format ()
  "Lay the columns out for the window: Name, Place, Km (near lists), Link, Updated.
Each column is as wide as its widest cell, up to a limit; when the
window is narrower, Name, Place and Link give way so that Km and
Updated stay on screen.  When even their least widths do not fit (a
window of 30 columns), Link is left out, then Place, so that a name
keeps its \"(you)\" whole (`onthemap--name-least') and Updated is whole.
The column the list is sorted by stays: sorted by Place or Link, the
other of the two is left out, then Updated."
  (let* ((titles (append '("Name" "Place") (when onthemap--near '("Km")) '("Link" "Updated")))
         (caps (append '(30 34) (when onthemap--near '(8)) '(56 12)))
         (fixed (if onthemap--near '(2 4) '(3)))
         (cells (cons titles (mapcar (lambda (entry) (append (cadr entry) nil)) tabulated-list-entries)))
         (natural (onthemap--natural-widths cells caps))
         (whole (onthemap--natural-widths cells (make-list (length caps) most-positive-fixnum)))
         (room (onthemap--list-room))
         ;; Link, then Place; not the column the list is sorted by, which it must keep.  Updated
         ;; last: kept unless the list is sorted by Place or Link (then it is the one left).
         (drops (seq-remove (lambda (i) (equal (nth i titles) (car tabulated-list-sort-key)))
                            (if onthemap--near '(3 1 4) '(2 1 3))))
         (shown (number-sequence 0 (1- (length titles))))
         widths)
    (while
        (let ((room-left (- room tabulated-list-padding (1- (length shown)))))
          ;; Padding, then one space after each column but the last.
          (setq widths (onthemap--fit-widths (mapcar (lambda (i) (nth i natural)) shown)
                                             (cl-loop for i in shown for n from 0 when (memq i fixed) collect n)
                                             room-left nil
                                             (mapcar (lambda (i) (and (= i 0) onthemap--name-least)) shown)))
          (and (> (apply #'+ widths) room-left) drops
               (setq shown (delq (pop drops) shown)))))
    ;; The caps hold only while the window is short of room: what is left over goes to the
    ;; columns they cut, as the CLI's table gives it ("Springfield, Illinois, United States"
    ;; whole at 200 columns).
    (setq widths (onthemap--spare-to-cut widths (mapcar (lambda (i) (nth i whole)) shown)
                                         (- room tabulated-list-padding (1- (length shown)))))
    (setq onthemap--laid-out-width room
          onthemap--laid-out-sort tabulated-list-sort-key
          onthemap--columns shown)
    (setq tabulated-list-format
          (vconcat (cl-loop for i in shown
                            for title = (nth i titles)
                            for width in widths
                            collect (pcase title
                                      ("Km" (list title width #'onthemap--km-< :right-align t))
                                      ("Updated" (list title width #'onthemap--updated-<))
                                      (_ (list title width (onthemap--cell-< i)))))))
    (tabulated-list-init-header)))

(defun onthemap--list-resized (window)
  "Lay the list in WINDOW out again when its width changed.
A problem shown in its place is broken to the new width."
  (with-current-buffer (window-buffer window)
    (onthemap--list-lay-out-again)))

(defun onthemap--list-lay-out-again ()
  "Lay this list out again when its width or its sort changed.
A sort by Place or Link keeps that column in a narrow window; another
sort (a click on a title, or back to the daemon's order) gives the
columns back as they are for it."
  (when (and (derived-mode-p 'onthemap-students-mode)
             (or tabulated-list-entries onthemap--problem)
             (not (and (eql (onthemap--list-room) onthemap--laid-out-width)
                       (equal tabulated-list-sort-key onthemap--laid-out-sort))))
    (onthemap--set-format)
    (tabulated-list-print t)
    (onthemap--update-summary)))

(defface onthemap-you '((t :inherit bold))
  "Your own row in the students lists.")

(defconst onthemap--you " (you)"
  "What marks your own row's name.")

(defun onthemap--truncate (text width)
  "TEXT cut to at most WIDTH columns, ending in \"…\" when cut.
A cut keeps whole characters, as the CLI and Neovim cut: a letter
keeps its combining accents (\"José\" written with U+0301 is cut
before or after the accent's letter, never between), and a wide
character that would not fit is left out whole.  The face of TEXT's
start is the ellipsis's too."
  (if (<= (string-width text) width)
      text
    (let ((end (length (truncate-string-to-width text (max 0 (1- width))))))
      ;; `truncate-string-to-width' stops as soon as the columns are used up, before the
      ;; marks of the last letter: they take no column, so they go with it.
      (while (and (< end (length text)) (= (char-width (aref text end)) 0))
        (setq end (1+ end)))
      (concat (substring text 0 end) (propertize "…" 'face (get-text-property 0 'face text))))))

(defun onthemap--fit-keeping (text suffix width)
  "TEXT, which ends in SUFFIX, cut to WIDTH columns with SUFFIX kept whole.
The rest is cut, ending in an ellipsis (\"Ada Lo… (you)\"), unless that
leaves it fewer than 4 columns: then TEXT is returned as it is, for
the list to cut as any cell."
  (let ((head (substring text 0 (- (length text) (length suffix))))
        (room (- width (string-width suffix))))
    (if (< room 4)
        text
      (propertize (concat (onthemap--truncate head room) suffix)
                  'face (get-text-property 0 'face text)))))

(defun onthemap--print-entry (id cols)
  "Insert the entry ID with COLS as `tabulated-list-print-entry' does.
Only the columns laid out for the window (`onthemap--columns').  Your
own row's name, when wider than its column, is cut before its
\"(you)\", which stays whole (\"Ada Lo… (you)\"), as in Neovim and
the CLI; the list would cut the mark instead.  A cell the list cuts
keeps its accents with their letter (`onthemap--keep-accents')."
  (let* ((name (aref cols 0))
         (width (nth 1 (aref tabulated-list-format 0)))
         (start (point))
         (fitted (onthemap--fill-short-cuts
                  (if (= (length cols) (length tabulated-list-format))
                      cols
                    (vconcat (mapcar (lambda (i) (aref cols i)) onthemap--columns))))))
    (when (and (onthemap--true-p (plist-get id :mine))
               (string-suffix-p onthemap--you name)
               (> (string-width name) width))
      (aset fitted 0 (onthemap--fit-keeping name onthemap--you width)))
    (tabulated-list-print-entry id fitted)
    (unless (equal fitted cols)
      ;; The entry as it is, for what reads it back (`tabulated-list-get-entry'), as
      ;; for any cell the list cuts.
      (put-text-property start (point) 'tabulated-list-entry cols))
    (onthemap--keep-accents start (point))))

(defun onthemap--fill-short-cuts (cols)
  "A copy of COLS where a cell cut short of its column is cut here and padded.
Where a wide character does not fit (\"Star✨ Lee\" in 6 columns is
\"Star…\", 5), `tabulated-list' pads the cell as if its cut filled the
column, and the rest of the row starts a column early.  Such a cell is
cut by `onthemap--truncate' and padded with spaces to the column's
width, which the list then prints as it is.  The list never cuts the
last column: one wider than its column is cut here (Place or Link,
last when the list is sorted by it in a narrow window)."
  (let ((fitted (copy-sequence cols))
        (last (1- (length tabulated-list-format))))
    (dotimes (n (1+ last))
      (let* ((cell (aref cols n))
             (width (nth 1 (aref tabulated-list-format n))))
        (when (and (stringp cell) (> (string-width cell) width))
          (let ((cut (onthemap--truncate cell width)))
            (cond ((= n last) (aset fitted n cut))
                  ((< (string-width cut) width)
                   (aset fitted n (concat cut (make-string (- width (string-width cut)) ?\s)))))))))
    fitted))

(defun onthemap--keep-accents (start end)
  "Between START and END, give each cut cell's accents back to their letter.
The list cuts a cell with `truncate-string-to-width', keeping the whole
text under a `display' property that shows \"…\"; that stops before
the accents of the last letter kept (\"José\" written with U+0301 shows
as \"Jose…\").  They take no column: moved out from under the ellipsis,
they show with their letter, as `onthemap--truncate' cuts."
  (let ((pos start))
    (while (< pos end)
      (let ((next (next-single-property-change pos 'display nil end)))
        (when (equal (get-text-property pos 'display) "…")
          (let ((from pos))
            (while (and (< from next) (= (char-width (char-after from)) 0))
              (setq from (1+ from)))
            (when (and (> from pos) (< from next))
              (remove-text-properties pos from '(display nil))
              (put-text-property from next 'display "…"))))
        (setq pos next)))))

(defun onthemap--entries (students)
  "Tabulated list entries of STUDENTS (a vector of plists).
In a near list, the Km column shows each student's `distanceKm' from
the daemon's answer.  Your own row's name is marked \"(you)\", as the
CLI marks it: as the daemon's `mine' says, which knew whose list it
was when it answered."
  (mapcar
   (lambda (student)
     ;; The daemon's distance: one distance (one Earth radius) in every client.  Its one
     ;; decimal makes halves common: they round up, as in the CLI and Neovim (`round' and
     ;; "%.0f" would show 252.5 as 252).
     (let ((km (plist-get student :distanceKm))
           (mine (onthemap--true-p (plist-get student :mine))))
       (list student
             (vconcat
              (list (if mine (propertize (concat (onthemap--name student) onthemap--you) 'face 'onthemap-you)
                      (onthemap--name student))
                    (onthemap--clean (plist-get student :mapString)))
              (when onthemap--near
                (list (if (numberp km) (number-to-string (floor (+ km 0.5))) "")))
              (list (onthemap--clean (plist-get student :mediaURL))
                    (onthemap--age (plist-get student :updatedAt)))))))
   students))

(defun onthemap--summary (&optional place)
  "The first line of a students list: how many, in which order, how fresh.
Then, when there are none, a line that says so.  A near list names
PLACE there, when given, in place of its whole place
\(`onthemap--fitted-summary')."
  (let* ((result onthemap--shown)
         (shown (length (plist-get result :students)))
         (sort-key (car tabulated-list-sort-key)))
    (concat (format "%s of %s students" (onthemap--grouped shown) (onthemap--grouped (or (plist-get result :total) shown)))
            ;; Fewer looked at than the server has: said right after the count it qualifies,
            ;; so no list is silently short (the CLI's notes).
            (when-let ((looked (plist-get result :limitedTo)))
              (cond ((not (equal (plist-get result :source) "cache"))
                     (format " (only the newest %s looked at)" (onthemap--grouped looked)))
                    ((zerop looked) " (server unreachable, and nothing cached yet)")
                    (t (format " (server unreachable: only the %s cached looked at)" (onthemap--grouped looked)))))
            (when onthemap--search (format " matching \"%s\"" (onthemap--clean onthemap--search)))
            (when onthemap--near
              (format " %s %s%s" (if sort-key "near" "nearest to") (or place (onthemap--clean (nth 2 onthemap--near)))
                      (if (nth 3 onthemap--near) (format " (within %s km)" (onthemap--radius-text (nth 3 onthemap--near))) "")))
            (cond (sort-key (format ", sorted by %s%s" sort-key (if (cdr tabulated-list-sort-key) " (reversed)" "")))
                  ((not onthemap--near) ", newest first"))
            (format " · refreshed %s" (onthemap--age (plist-get result :refreshedAt)))
            (if (onthemap--true-p (plist-get result :stale)) " (stale: the daemon could not refresh)" "")
            (when (zerop shown)
              (concat "\n" (cond (onthemap--search (format "No student matches \"%s\"." (onthemap--clean onthemap--search)))
                                 (onthemap--near "No student there: try a larger radius.")
                                 (t "No students yet.")))))))

(defun onthemap--fitted-summary (tail)
  "The summary and then TAIL, its first line within the window if it can.
A near list's place is kept whole when it fits with its radius (what
comes after, how fresh the list is, is cut with \"…\"), as Neovim and
the CLI name it.  A place too long even for that is shortened as the
mode line shortens your pin's (`onthemap--short-place': \"Köln\" of \"Köln,
North Rhine-Westphalia, Germany\"), then cut with \"…\" as far as the
window needs (`onthemap--truncate'), so that the radius and how fresh
the list is stay whole.  Coordinates typed (\"48.85, 2.35\") are only
cut, never shortened to their first number.  Another list's first
line too wide for the window is cut with \"…\" within it."
  (let* ((whole (concat (onthemap--summary) tail))
         (room (onthemap--list-room))
         (place (and onthemap--near (onthemap--clean (nth 2 onthemap--near))))
         (lines (split-string whole "\n"))
         (at (and place (string-search (concat " " place) (car lines))))
         (radius (if (nth 3 onthemap--near) (format " (within %s km)" (onthemap--radius-text (nth 3 onthemap--near))) "")))
    (cond
     ((<= (string-width (car lines)) room) whole)
     ;; Not a near list: cut with "…" within the window, as Neovim cuts it ("(stale: the
     ;; daemon cou…"), not at its edge.
     ((null place) (string-join (cons (onthemap--truncate (car lines) room) (cdr lines)) "\n"))
     ;; The place whole, as Neovim and the CLI name it ("nearest to Sydney, New South Wales,
     ;; Australia"), when it fits with its radius: the age after it is cut with "…".
     ((and at (<= (string-width (substring (car lines) 0 (+ at 1 (length place) (length radius)))) room))
      (string-join (cons (onthemap--truncate (car lines) room) (cdr lines)) "\n"))
     (t
      (let* ((short (onthemap--short-place place))
             ;; "48.85, 2.35" is no name and a region: no letter in what is left.
             (short (if (string-match-p "[[:alpha:]]" short) short place))
             (rest (string-width (car (split-string (concat (onthemap--summary "") tail) "\n")))))
        (concat (onthemap--summary (onthemap--truncate short (max 2 (- room rest)))) tail))))))

(defun onthemap--wrap-words (text width)
  "The words of TEXT for `onthemap--wrap', at most WIDTH columns wide.
A command in quotes (`onthemapd --socket /run/x.sock &` or `...'),
with what is glued to its end, is one word when it fits, so that it
is on one line to copy."
  (let ((words nil) (position 0))
    (while (string-match "[^ \n]+" text position)
      (let ((start (match-beginning 0))
            (end (match-end 0)))
        (when (and (eq (aref text start) ?`)
                   (string-match "`[^`']*[`'][^ \n]*" text start)
                   (= (match-beginning 0) start)
                   (<= (string-width (match-string 0 text)) width))
          (setq end (match-end 0)))
        (push (substring text start end) words)
        (setq position end)))
    (nreverse words)))

(defun onthemap--wrap (text width)
  "TEXT broken at spaces into lines of at most WIDTH columns.
A word wider than that has a line of its own, and a command in
quotes that fits is kept on one line."
  (let ((lines nil) (line nil))
    (dolist (word (onthemap--wrap-words text width))
      (if (and line (<= (+ (string-width line) 1 (string-width word)) width))
          (setq line (concat line " " word))
        (when line (push line lines))
        (setq line word)))
    (push (or line "") lines)
    (string-join (nreverse lines) "\n")))

(defun onthemap--summary-line ()
  "The text shown above the students, with its face.
A problem is broken at spaces to the window's width, so that all of
it is on screen (what to do, after the first words, included)."
  (cond (onthemap--problem
         (concat (propertize (onthemap--wrap (car onthemap--problem) (onthemap--list-room)) 'face (cdr onthemap--problem))
                 (propertize (if (> onthemap--fetching 0) "\nTrying again…" "\ng tries again, q quits.") 'face 'shadow)))
        (onthemap--shown (propertize (onthemap--fitted-summary (if (> onthemap--fetching 0) " · fetching…" ""))
                                     'face 'shadow))
        (t (propertize "Loading students…" 'face 'shadow))))

(defun onthemap--update-summary ()
  "Show the list's summary line above its students, as of now.
It is the `before-string' of an overlay at the buffer's start, which
stays there however often the list is printed again (sorted, filled)."
  (unless (overlayp onthemap--summary-overlay)
    (setq onthemap--summary-overlay (make-overlay (point-min) (point-min) nil nil nil)))
  (let ((text (concat (onthemap--summary-line) "\n")))
    (unless (equal-including-properties text (overlay-get onthemap--summary-overlay 'before-string))
      (move-overlay onthemap--summary-overlay (point-min) (point-min))
      (overlay-put onthemap--summary-overlay 'before-string text))))

(defun onthemap-summary-text (&optional buffer)
  "The summary line(s) shown at the top of the list BUFFER, as text."
  (with-current-buffer (or buffer (current-buffer))
    (substring-no-properties (or (and (overlayp onthemap--summary-overlay)
                                      (overlay-get onthemap--summary-overlay 'before-string))
                                 ""))))

(defun onthemap--student-key (student)
  "What STUDENT is known by from one list to the next: its pin's id.
A moved pin keeps it."
  (and student (or (plist-get student :objectId) (plist-get student :uniqueKey))))

(defun onthemap--student-at (&optional position)
  "The student at POSITION (or point): a list's row or a map's pin, or nil."
  (or (tabulated-list-get-id position) (get-text-property (or position (point)) 'onthemap-pin)))

(defun onthemap--cursors ()
  "Where the cursors in this list or map are, on which student.
A list of (WINDOW KEY LINES): WINDOW nil for the buffer's point, else
a window showing the list; KEY the student's (`onthemap--student-key');
LINES how many lines below the window's start it is."
  (delq nil
        (mapcar (lambda (window)
                  (let* ((position (if window (window-point window) (point)))
                         (key (onthemap--student-key (onthemap--student-at position))))
                    (when key
                      (list window key (if window (count-lines (window-start window)
                                                               (save-excursion (goto-char position) (line-beginning-position)))
                                         0)))))
                (cons nil (get-buffer-window-list (current-buffer) nil t)))))

(defun onthemap--row-of (key)
  "The start of the row of the student KEY in this list or map, or nil."
  (save-excursion
    (goto-char (point-min))
    (let (found)
      (while (and (not found) (not (eobp)))
        (when (equal key (onthemap--student-key (onthemap--student-at)))
          (setq found (point)))
        (forward-line 1))
      found)))

(defun onthemap--restore-cursors (cursors)
  "Put each of CURSORS (from `onthemap--cursors') back on its student.
Wherever the list has it now, at the same height in its window; no
window is selected."
  (pcase-dolist (`(,window ,key ,lines) cursors)
    (when-let ((row (onthemap--row-of key)))
      (cond ((null window) (goto-char row))
            ((and (window-live-p window) (eq (window-buffer window) (current-buffer)))
             (set-window-point window row)
             (set-window-start window (save-excursion (goto-char row) (forward-line (- lines)) (point)) t))))))

(defun onthemap--print (entries)
  "Print ENTRIES (nil for none) in the current list, laid out for its window.
The cursors stay on their students, wherever these are now."
  (let ((cursors (onthemap--cursors)))
    (setq tabulated-list-entries entries)
    (onthemap--set-format)
    (tabulated-list-print t)
    (onthemap--restore-cursors cursors))
  (onthemap--update-summary)
  (cl-incf onthemap--generation))

(defun onthemap--fill (buffer result)
  "Show the `students' RESULT in BUFFER."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq onthemap--shown result
            onthemap--problem nil
            onthemap--needs-login nil
            onthemap--needs-daemon nil)
      (onthemap--print (onthemap--entries (plist-get result :students))))))

(defun onthemap--show-problem (buffer text &optional face)
  "Empty the list BUFFER and show TEXT in its place, in FACE (`error')."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq onthemap--shown nil
            onthemap--floor onthemap--sent
            onthemap--problem (cons (concat "OnTheMap: " (onthemap--clean text)) (or face 'error)))
      (onthemap--print nil))))

(defun onthemap--failed (buffer error)
  "Empty BUFFER and show why: ERROR, also in the echo area."
  (onthemap--show-problem buffer (plist-get error :message))
  (onthemap--note-failure buffer error)
  (onthemap--report error))

(defun onthemap--list-logged-out ()
  "Empty the current list after a logout: nothing in it may be opened now."
  (onthemap--show-problem (current-buffer) (onthemap--in-emacs-words onthemap--not-logged-in nil)))

(defun onthemap--list-reload ()
  "Fill the current list again after a login."
  (onthemap--revert nil nil))

(defun onthemap--fetch (buffer refresh &optional quiet)
  "Fetch the students for BUFFER; REFRESH asks the daemon to fetch anew first.
Until the answer comes, the list's summary says that it is on its way
\(the list shown stays, as `g' in magit keeps the buffer).  QUIET (the
daemon's list changed, nobody asked): the summary says nothing, and a
failure leaves the list as it is and says nothing; the status
subscription tells a logout, which empties the list, or a daemon gone,
which fills it again once back.  An answer older than what the list
shows, or than a logout that emptied it since, is dropped: requests
and the subscription's events come on different connections, in no
order between them."
  (let ((near (buffer-local-value 'onthemap--near buffer))
        (search (buffer-local-value 'onthemap--search buffer))
        number)
    (with-current-buffer buffer
      (setq number (cl-incf onthemap--sent))
      (unless quiet
        (cl-incf onthemap--fetching)
        (onthemap--update-summary)))
    (onthemap-request 'students
                      (append (list :limit onthemap-limit)
                              (when refresh (list :refresh t))
                              (when search (list :search search))
                              (when near (list :near (append (list :latitude (nth 0 near) :longitude (nth 1 near))
                                                             (when (nth 3 near) (list :radiusKm (nth 3 near)))))))
                      (lambda (result)
                        (unless quiet (onthemap--fetched buffer))
                        (when (buffer-live-p buffer)
                          (with-current-buffer buffer
                            (if (<= number onthemap--floor)
                                (onthemap--update-summary)
                              (setq onthemap--floor number)
                              (onthemap--fill buffer result)))))
                      (lambda (error)
                        (unless quiet (onthemap--fetched buffer))
                        (cond ((not quiet) (onthemap--failed buffer error))
                              ((not (or (onthemap--needs-login-p error) (eq (plist-get error :kind) 'daemon)))
                               (onthemap--note-failure buffer error))
                              ((buffer-live-p buffer)
                               (with-current-buffer buffer (onthemap--update-summary))))))))

(defun onthemap--refresh-then-fetch (buffer)
  "Have the daemon fetch anew, then fetch the students for BUFFER.
A refresh that fails says so in the echo area, with the daemon's
reason and what to do (the words of `onthemap refresh': \"Cannot reach
the OnTheMap API at ...: the connection was refused.  Check the
network and the API URL, then retry.\"), as magit says a failed
fetch; the list then shows the cache, stale.  A daemon gone or a
login needed is the list's to say, as for any fetch."
  (with-current-buffer buffer
    (cl-incf onthemap--fetching)
    (onthemap--update-summary))
  (let ((then (lambda (error)
                (onthemap--fetched buffer)
                (when (and error (eq (plist-get error :kind) 'daemon) (not (onthemap--needs-login-p error)))
                  (onthemap--report error "refresh"))
                (when (buffer-live-p buffer)
                  (onthemap--fetch buffer nil)))))
    (onthemap-request 'refresh nil (lambda (_result) (funcall then nil)) then)))

(defun onthemap--fetched (buffer)
  "One request for BUFFER has come back (its answer is shown next)."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq onthemap--fetching (max 0 (1- onthemap--fetching))))))

(defun onthemap--revert (&optional _ignore-auto _noconfirm refresh)
  "Fetch the list again (bound to \\[revert-buffer]); a near list's place too.
The daemon refreshes from the API first when called interactively
or with REFRESH.  A near list whose place was not found looks it up
again."
  (let ((refresh (or refresh (called-interactively-p 'any) (eq this-command 'revert-buffer))))
    (if (and onthemap--near-query (not onthemap--near))
        (onthemap--look-up (current-buffer))
      (if refresh
          (onthemap--refresh-then-fetch (current-buffer))
        (onthemap--fetch (current-buffer) nil)))))

(defun onthemap--list-buffer (name &optional search)
  "The list buffer NAME, set up for SEARCH (nil or words), emptied."
  (let ((buffer (get-buffer-create name)))
    (with-current-buffer buffer
      (unless (derived-mode-p 'onthemap-students-mode) (onthemap-students-mode))
      (setq onthemap--near nil
            onthemap--near-query nil
            onthemap--search search
            onthemap--shown nil
            onthemap--problem nil
            tabulated-list-sort-key nil)
      (onthemap--print nil))
    buffer))

;;;###autoload
(defun onthemap ()
  "Show the newest students of OnTheMap."
  (interactive)
  (let ((buffer (onthemap--list-buffer "*OnTheMap*")))
    (pop-to-buffer-same-window buffer)
    (onthemap--fetch buffer nil)
    buffer))

;;;###autoload
(defun onthemap-search (words)
  "Show the students whose name or place match WORDS, newest first.
Every word must match; case and accents are ignored (\"koln\" finds
\"Köln\"), as with `onthemap students --search'."
  (interactive (list (read-string "Search students (name or place): ")))
  (when (string-blank-p (or words ""))
    (onthemap--refuse "OnTheMap: no words given: type a name or a place to search for (M-x onthemap lists everyone)"))
  (let ((buffer (onthemap--list-buffer "*OnTheMap search*" (string-trim words))))
    (pop-to-buffer-same-window buffer)
    (onthemap--fetch buffer nil)
    buffer))

(defconst onthemap--coordinates-regexp
  "\\`[[:space:]]*\\([-+]?[0-9]*\\.?[0-9]+\\)[[:space:]]*,[[:space:]]*\\([-+]?[0-9]*\\.?[0-9]+\\)[[:space:]]*\\'"
  "Two numbers around a comma: coordinates, as the daemon reads them.")

(defun onthemap--coordinates (text)
  "The (LATITUDE LONGITUDE) TEXT gives, or nil when it names a place.
Signal `user-error' when it is two numbers out of range (a typo, not
a place)."
  (when (string-match onthemap--coordinates-regexp text)
    (let ((latitude (string-to-number (match-string 1 text)))
          (longitude (string-to-number (match-string 2 text))))
      (cond ((> (abs latitude) 90)
             (onthemap--refuse "Latitude %s is out of range: it goes from -90 to 90" (match-string 1 text)))
            ((> (abs longitude) 180)
             (onthemap--refuse "Longitude %s is out of range: it goes from -180 to 180" (match-string 2 text))))
      (list latitude longitude))))

(defun onthemap--look-up (buffer)
  "Find the place of the near list BUFFER, then fetch the students near it."
  (with-current-buffer buffer
    (pcase-let ((`(,place ,km) onthemap--near-query))
      (setq onthemap--near nil)
      (onthemap--show-problem buffer (format "Looking up %s…" place) 'shadow)
      (if-let ((point (condition-case err (onthemap--coordinates place)
                        (user-error (onthemap--failed buffer (list :message (cadr err))) nil))))
          (progn (setq onthemap--near (list (nth 0 point) (nth 1 point) place km))
                 (onthemap--fetch buffer nil))
        (unless (string-match-p onthemap--coordinates-regexp place)
          (onthemap-request
           'geocode (list :query place :limit 1)
           (lambda (result)
             (when (buffer-live-p buffer)
               (if-let ((match (seq-first (plist-get result :results))))
                   (with-current-buffer buffer
                     (setq onthemap--near (list (plist-get match :latitude) (plist-get match :longitude)
                                                (onthemap--place match) km))
                     (onthemap--fetch buffer nil))
                 (onthemap--failed buffer (list :message (format "No place matches \"%s\"." place))))))
           (lambda (error) (onthemap--failed buffer error))))))))

;;;###autoload
(defun onthemap-near (place &optional km)
  "Show the students nearest to PLACE (a place name or \"LAT,LON\").
With KM, only those within KM kilometres (from 0.1 to 20100, as the
CLI's --radius; `onthemap--radius' checks it).  When the place cannot be
found the list says why, and \\<onthemap-students-mode-map>\\[revert-buffer] looks it up again."
  (interactive
   ;; Each answer is checked before the next question: an empty place asks no radius.
   ;; From a list (N), the place of the student on this line is the default.
   (let* ((here (and (derived-mode-p 'onthemap-students-mode)
                     (onthemap--clean-p (plist-get (tabulated-list-get-id) :mapString))
                     (plist-get (tabulated-list-get-id) :mapString)))
          (place (onthemap--nonempty (read-string (format-prompt "Students near (place or lat,lon)" here) nil nil here)
                                     "no place given: type a place, or lat,lon")))
     (list place (onthemap--read-km))))
  (setq place (onthemap--nonempty place "no place given: type a place, or lat,lon")
        km (onthemap--radius km))
  (let ((buffer (onthemap--list-buffer "*OnTheMap near*")))
    (pop-to-buffer-same-window buffer)
    (setq onthemap--near-query (list place km))
    (onthemap--look-up buffer)
    buffer))

(defun onthemap--nonempty (text why)
  "TEXT trimmed; signal `user-error' saying WHY when nothing is left.
What is typed is checked here, so no request is sent that the daemon
would refuse for a missing value."
  (let ((text (string-trim (or text ""))))
    (when (string-empty-p text) (onthemap--refuse "OnTheMap: %s" why))
    text))

(defun onthemap--read-km ()
  "Ask for a radius in km, and return it, or nil for none.
Signal `user-error' for anything `onthemap--radius' refuses."
  (onthemap--radius (read-string "Within km (empty: any distance): ")))

(defconst onthemap--radius-range '(0.1 . 20100)
  "The radii in km the daemon takes, from 0.1 to 20100 (the CLI's --radius).")

(defun onthemap--radius-text (km)
  "The radius KM (a number) as people and the CLI write it: \"1000\", \"0.5\".
No \".0\" after a whole number, however it was typed (\"1e3\" is
\"1000\").  The one way a radius is shown."
  (string-remove-suffix ".0" (number-to-string km)))

(defun onthemap--radius (km)
  "The radius KM, a number or a string as typed, as a number; nil for none.
Signal `user-error' unless it is a number of km from 0.1 to 20100,
the range the CLI and the daemon take, in the user's words (\"the
radius must be from 0.1 to 20100 km, not \"0.05\"\").  The one
check of a radius: typed, or given to `onthemap-near' or
`onthemap-map' from Lisp."
  (let* ((text (if (stringp km) (string-trim km) km))
         (number (cond ((numberp text) text)
                       ((and (stringp text) (string-match-p "\\`\\+?\\([0-9]+\\.?[0-9]*\\|\\.[0-9]+\\)\\([eE][-+]?[0-9]+\\)?\\'" text))
                        (string-to-number text)))))
    (cond ((or (null text) (equal text "")) nil)
          ((and number (<= (car onthemap--radius-range) number (cdr onthemap--radius-range))) number)
          (t (onthemap--refuse "OnTheMap: the radius must be from %s to %s km, not \"%s\""
                               (onthemap--radius-text (car onthemap--radius-range))
                               (onthemap--radius-text (cdr onthemap--radius-range))
                               (onthemap--clean (if (numberp text) (onthemap--radius-text text) (format "%s" text))))))))

(defun onthemap-open-student-link ()
  "Open the link of the student on this line."
  (interactive)
  (if-let ((student (tabulated-list-get-id)))
      (onthemap-open-link (plist-get student :mediaURL) (onthemap--name student) (plist-get student :mediaURLDropped))
    (message "OnTheMap: no student on this line")))

(defun onthemap-copy-student-link ()
  "Copy the link of the student on this line to the kill ring.
\\[yank] then pastes it, and so does the clipboard where
`select-enable-clipboard' hands kills to it (a graphical frame).  Over
ssh there is no browser to open it in: copied, it can be pasted
elsewhere.  A link the daemon dropped is not copied, and the echo
area says why, as \\<onthemap-students-mode-map>\\[onthemap-open-student-link] does."
  (interactive)
  (if-let ((student (tabulated-list-get-id)))
      (let ((link (plist-get student :mediaURL))
            (who (onthemap--name student))
            (dropped (plist-get student :mediaURLDropped)))
        (cond ((and (stringp link) (not (string-empty-p link)))
               (kill-new link)
               ;; The apostrophe as an argument: `message' curves one in its format.
               (message "OnTheMap: copied %s, %s (%s pastes it)"
                        (concat who "'s link") (onthemap--clean link) (substitute-command-keys "\\[yank]")))
              ((and (stringp dropped) (not (string-empty-p (onthemap--clean dropped))))
               (message "OnTheMap: not copying %s: %s" (concat who "'s link") (onthemap--truncate (onthemap--clean dropped) 100)))
              (t (message "OnTheMap: %s has no web link to copy" who))))
    (message "OnTheMap: no student on this line")))

(defconst onthemap--list-key-help
  '((onthemap-open-student-link . "open the link of the student on this line")
    (onthemap-copy-student-link . "copy that link (the kill ring; C-y pastes it)")
    (onthemap-post . "post or move your pin")
    (onthemap-search . "search the students by name or place")
    (onthemap-near . "the students near a place (this line's is offered)")
    (onthemap-map . "the map of the students")
    (revert-buffer . "fetch the list again (the daemon asks the API)")
    (onthemap-sort . "sort by the column at point; again, the other way")
    (quit-window . "close this list")
    (onthemap-list-help . "this list of keys")
    (describe-mode . "every key of the list, and the mode's help"))
  "What `onthemap-list-help' lists: (COMMAND . WHAT IT DOES), in order.
Each is shown with its key in `onthemap-students-mode-map'.")

(defun onthemap--list-help-lines ()
  "The lines of `onthemap-list-help': each key of the list and what it does.
The keys are read from `onthemap-students-mode-map', so that they are
the ones bound."
  (let* ((keys (mapcar (lambda (entry)
                         (cons (key-description (where-is-internal (car entry) onthemap-students-mode-map t))
                               (cdr entry)))
                       onthemap--list-key-help))
         (width (apply #'max (mapcar (lambda (key) (string-width (car key))) keys))))
    (mapcar (lambda (key) (concat (string-pad (car key) width) "  " (cdr key)))
            (seq-remove (lambda (key) (string-empty-p (car key))) keys))))

(defun onthemap-list-help ()
  "Show the keys of the students list and what each does, in a help window.
A short list, as magit's and elfeed's; \\[describe-mode] describes the mode.
\\<help-mode-map>\\[quit-window] in it closes it."
  (interactive)
  (let ((name (buffer-name)))
    (with-help-window "*OnTheMap keys*"
      (princ (format "Keys in %s\n\n" name))
      (princ (mapconcat #'identity (onthemap--list-help-lines) "\n"))
      (princ "\n"))))

(defun onthemap--column-at-point ()
  "The index of the column at point, or of the nearest one left of it.
Point in the padding before the first column counts as the first."
  (let* ((name (or (get-text-property (point) 'tabulated-list-column-name)
                   (let ((position (previous-single-property-change (point) 'tabulated-list-column-name
                                                                    nil (line-beginning-position))))
                     (and position (> position (line-beginning-position))
                          (get-text-property (1- position) 'tabulated-list-column-name))))))
    (or (and name (seq-position (append tabulated-list-format nil) name
                                (lambda (column name) (equal (car column) name))))
        0)))

(defun onthemap-sort (&optional column)
  "Sort the list by the column at point; again, the other way round.
Point before the first column (or between two) sorts by the column
on its left, or the first.  With a numeric prefix argument COLUMN,
sort by that column (counted from 0); with -1, go back to the
daemon's order."
  (interactive "P")
  (cond ((null tabulated-list-entries) (message "OnTheMap: no students to sort"))
        ((eql (and column (prefix-numeric-value column)) -1)
         ;; The daemon's order, from its last answer: `tabulated-list-sort' knows only the
         ;; order of the entries it first sorted, and failed on those of a later fetch.
         (setq tabulated-list-sort-key nil)
         (onthemap--print (onthemap--entries (plist-get onthemap--shown :students))))
        (column (tabulated-list-sort (prefix-numeric-value column)))
        (t (tabulated-list-sort (onthemap--column-at-point))))
  (onthemap--list-lay-out-again)
  (onthemap--update-summary))

;;;; Posting a pin

;; The questions of a command are asked by the command, never from a timer
;; or a process filter: there they would take the minibuffer from whatever
;; the user does meanwhile (a `C-x C-f' typed while the daemon answers
;; would fail with "Command attempted to use minibuffer while in
;; minibuffer", and the question would be lost).  So a command that asks
;; something after the daemon answers waits for that answer itself, as
;; eglot does before its prompts: the wait lets timers and other processes
;; run, C-g ends it, and `onthemap-timeout' bounds it.

(defun onthemap--await (method params doing)
  "Call METHOD with PARAMS, wait for the answer and return the result.
For a command that asks the user something next.  Signal `user-error'
with the reason when the call fails; DOING names what failed."
  (let ((result nil) (failure nil) (done nil)
        (started (float-time)) (told nil))
    (onthemap-request method params
                      (lambda (value) (setq result value done t))
                      (lambda (error) (setq failure error done t)))
    (while (not done)
      (accept-process-output nil 0.05)
      (when (and (not told) (> (- (float-time) started) 1))
        (setq told t)
        (let ((message-log-max nil)) (message "OnTheMap: waiting for onthemapd… (C-g stops)"))))
    (when told (message nil))
    (when failure
      (onthemap--refuse "OnTheMap: %s: %s" doing (onthemap--clean (plist-get failure :message))))
    result))

(defun onthemap--move-question (from to)
  "The question before your pin at FROM is replaced by one at TO."
  (if (equal from to)
      (format "Replace your pin at %s (new link)? " to)
    (format "Move your pin from %s to %s? " from to)))

(defconst onthemap--precision-words
  '(("locality" . "town or city") ("region" . "region") ("country" . "country")
    ("continent" . "continent") ("ocean" . "ocean or sea"))
  "What a geocoder match's `precision' is, in words (\"locality\" is the geocoder's).")

(defun onthemap--place-choices (matches)
  "The choices a user sees for the geocoder's MATCHES: ((SHOWN . MATCH) ...).
SHOWN reads \"Springfield, Missouri, United States (town or city)\"; two
matches that read the same are one choice (the first, the better)."
  (let ((choices nil))
    (seq-doseq (match matches)
      (let* ((label (onthemap--place match))
             (kind (cdr (assoc (plist-get match :precision) onthemap--precision-words)))
             (shown (if kind (format "%s (%s)" label kind) label)))
        (unless (or (string-empty-p label) (assoc shown choices))
          (push (cons shown match) choices))))
    (nreverse choices)))

(defun onthemap--choose-place (place current)
  "The geocoder's match for PLACE the user picks; CURRENT is their pin or nil.
One match is taken as it is (the link prompt names it)."
  (let ((choices (onthemap--place-choices
                  (plist-get (onthemap--await 'geocode (list :query place :limit 5) "post") :results))))
    (cond ((null choices)
           (onthemap--refuse "OnTheMap: no place matches \"%s\": %s" (onthemap--clean place) (onthemap--unchanged current)))
          ((null (cdr choices)) (cdar choices))
          (t (cdr (assoc (completing-read (format-prompt "Which %s" (caar choices) (onthemap--clean place))
                                          choices nil t nil nil (caar choices))
                         choices))))))

(defun onthemap--unchanged (current)
  "What became of the pin CURRENT (or none) when nothing was posted."
  (if current
      (format "your pin stays at %s" (onthemap--clean (plist-get current :mapString)))
    "nothing was posted"))

(defun onthemap--same-pin-p (current label where link)
  "Whether a pin named LABEL at WHERE's coordinates with LINK is CURRENT as it is.
Then posting it would change nothing."
  (cl-flet ((same (a b) (and (numberp a) (numberp b) (= a b))))
    (and current
         (equal label (plist-get current :mapString))
         (same (plist-get where :latitude) (plist-get current :latitude))
         (same (plist-get where :longitude) (plist-get current :longitude))
         (equal link (plist-get current :mediaURL)))))

(defun onthemap--posted (result)
  "Say what the daemon's postPin RESULT did: posted or moved, where, which link."
  (let ((pin (plist-get result :pin)))
    (message "OnTheMap: %s %s (%s)"
             (if (onthemap--true-p (plist-get result :created)) "posted your pin at" "moved your pin to")
             (onthemap--clean (plist-get pin :mapString)) (onthemap--clean (plist-get pin :mediaURL)))))

(defun onthemap--post-pin (params existing)
  "Send the pin PARAMS; EXISTING is the pin the user agreed to move, or nil.
The answer is told in the echo area.  A pin posted meanwhile from
elsewhere is reported, not asked about: no question comes from here."
  (onthemap-request
   'postPin (append params (when existing (list :overwrite t)))
   #'onthemap--posted
   (lambda (error)
     (if (eql (plist-get error :code) -32006)
         (message "OnTheMap: post: your pin was posted at %s meanwhile (from elsewhere): run M-x onthemap-post again to move it"
                  (onthemap--clean (plist-get (plist-get (plist-get error :data) :pin) :mapString)))
       (onthemap--report error "post")))))

;;;###autoload
(defun onthemap-post ()
  "Post your pin, or move it.
Asks for the place (empty keeps your pin where it is and changes only
its link), offers the geocoder's matches (one match is taken as it
is), asks for the link (your pin's link is the default), and asks
before moving your pin; the same place and link post nothing.  Each
question is asked by this command, so none is lost to what you type
meanwhile."
  (interactive)
  (let* ((current (plist-get (onthemap--await 'myPin nil "post") :pin))
         (place (string-trim (read-string (if current
                                              (format "Place (empty keeps %s): " (onthemap--clean (plist-get current :mapString)))
                                            "Place: "))))
         (where (cond ((not (string-empty-p place)) (onthemap--choose-place place current))
                      (current current)
                      (t (onthemap--refuse "OnTheMap: no place given: nothing was posted"))))
         ;; The place as picked ("Springfield, Illinois, United States"), not as typed
         ;; ("Springfield"): what others read on the map and in their lists.
         (label (if (eq where current) (plist-get current :mapString) (onthemap--place where)))
         (default (and (onthemap--clean-p (plist-get current :mediaURL)) (plist-get current :mediaURL)))
         (why nil) (link nil) (answer nil))
    ;; The daemon checks the link (its WebLink rule, which this package does not copy) before it
    ;; looks for your pin: a post without `overwrite' is that check.  A link it refuses (-32008)
    ;; is asked for again with its reason, at the same place; "Move your pin?" comes only after.
    (while (progn
             (setq link (onthemap--typed-link
                         (read-string (format-prompt "%sLink for %s (http or https)" default
                                                     (if why (concat (onthemap--clean why) ". ") "")
                                                     (onthemap--clean label))
                                      nil nil default)))
             (setq answer (and link (not (onthemap--same-pin-p current label where link))
                               (onthemap--await-answer
                                'postPin (list :mapString label :mediaURL link
                                               :latitude (plist-get where :latitude)
                                               :longitude (plist-get where :longitude)))))
             (when (eql (plist-get (cdr answer) :code) onthemap--invalid-url)
               ;; Why, without the advice the message adds: the daemon's `data.reason'.
               (setq why (or (plist-get (plist-get (cdr answer) :data) :reason)
                             (replace-regexp-in-string "[[:space:].]*\\'" "" (plist-get (cdr answer) :message)))))))
    (let ((error (cdr answer))
          (params (list :mapString label :mediaURL link
                        :latitude (plist-get where :latitude) :longitude (plist-get where :longitude))))
      (cond ((null link) (message "OnTheMap: no link given: %s" (onthemap--unchanged current)))
            ;; The same place and link: nothing to ask, nothing to post.
            ((null answer) (message "OnTheMap: nothing changed: %s" (onthemap--unchanged current)))
            ((car answer) (onthemap--posted (car answer)))
            ((eql (plist-get error :code) -32006)
             ;; Your pin, as the daemon found it (posted meanwhile from elsewhere, too).
             (let ((pin (or (plist-get (plist-get error :data) :pin) current)))
               (if (y-or-n-p (onthemap--move-question (onthemap--clean (plist-get pin :mapString))
                                                      (onthemap--clean label)))
                   (onthemap--post-pin params pin)
                 (message "OnTheMap: %s" (onthemap--unchanged pin)))))
            (t (onthemap--report error "post"))))))

(defun onthemap--await-answer (method params)
  "Call METHOD with PARAMS, wait for the answer: (RESULT) or (nil . ERROR).
As `onthemap--await', for a command that asks next what the answer
decides; \[keyboard-quit] stops the wait."
  (let ((answer nil) (started (float-time)) (told nil))
    (onthemap-request method params
                      (lambda (value) (setq answer (list value)))
                      (lambda (error) (setq answer (cons nil error))))
    (while (not answer)
      (accept-process-output nil 0.05)
      (when (and (not told) (> (- (float-time) started) 1))
        (setq told t)
        (let ((message-log-max nil)) (message "OnTheMap: waiting for onthemapd… (C-g stops)"))))
    (when told (message nil))
    answer))

;;;; Login and logout

(defvar onthemap--status)

(defun onthemap--confirm-login-again ()
  "Ask, when the mode line knows of a session, whether to replace it.
As `onthemap login' asks (\"Log in again? [y/N]\"); a login replaced
the session without a word.  Not known (no subscription, the daemon
away): no question, and the login itself says what it finds."
  (when (and onthemap--status (onthemap--true-p (plist-get onthemap--status :loggedIn)))
    (let* ((name (onthemap--name (or (plist-get onthemap--status :account) '())))
           (who (if (string-empty-p name) "this account" name)))
      (unless (y-or-n-p (format "Already logged in as %s.  Log in again? " who))
        (onthemap--refuse "OnTheMap: still logged in as %s" who)))))

;;;###autoload
(defun onthemap-login (username)
  "Log in to OnTheMap as USERNAME; the password is read with `read-passwd'.
The password goes to the daemon, which forwards it once and keeps
only the session; it is wiped from memory once sent.  An empty email
or password sends nothing.  Interactively, logged in already, ask first."
  (interactive (progn
                 (onthemap--confirm-login-again)
                 (list (onthemap--nonempty (read-string "Email: " onthemap-username)
                                           "no email given: login cancelled"))))
  (onthemap--log-in (onthemap--nonempty username "no email given: login cancelled") nil))

(defun onthemap--log-in (username why)
  "Read the password for USERNAME and log in.
WHY, when non-nil, is why it is asked again: it starts the prompt.
A password the server refuses is asked again once, from the answer's
timer, with the server's reason in the prompt, as gh asks again; a
second refusal says what to do, as `onthemap login' does (in the
words `onthemap--in-emacs-words' gives it)."
  (let ((password (read-passwd (format "%sPassword for %s: " (or why "") username))))
    (unwind-protect
        (if (string-empty-p password)
            (if why                     ; asked again from a timer: nothing to signal to
                (message "OnTheMap: no password given: login cancelled")
              (onthemap--refuse "OnTheMap: no password given: login cancelled"))
          (onthemap-request 'login (list :username username :password password)
                            (lambda (account) (message "OnTheMap: logged in as %s" (onthemap--name account)))
                            (lambda (error)
                              (if (and (not why) (eql (plist-get error :code) onthemap--invalid-credentials))
                                  (onthemap--log-in username (concat (onthemap--what-happened (plist-get error :message)) ". "))
                                (onthemap--report error "login")))))
      (clear-string password))))

(defun onthemap--what-happened (message)
  "MESSAGE's words up to its first \": \", \" (\" or \". \", or all of it.
\"Account not found or invalid credentials\" of the daemon's
\"Account not found or invalid credentials: check ...\"."
  (replace-regexp-in-string "[[:space:].]*\\'" ""
                            (if (string-match ": \\| (\\|\\. " message) (substring message 0 (match-beginning 0)) message)))

(defun onthemap--logout-sentence (upstream)
  "What a logout did, from the daemon's UPSTREAM.
That is \"ended\", \"already ended\", \"no session\", or why the server
did not end the session (then it stays valid there until it expires)."
  (pcase upstream
    ("ended" "logged out")
    ("already ended" "logged out (the server had already ended the session)")
    ("no session" "not logged in")
    (_ (format "logged out here; the server did not end the session%s, so it stays valid there until it expires"
               (if (and (stringp upstream) (string-match "\\`not reached (\\(.*\\))" upstream))
                   (format " (%s)" (onthemap--clean (match-string 1 upstream)))
                 "")))))

;;;###autoload
(defun onthemap-logout ()
  "Log out of OnTheMap (the daemon forgets the session even offline)."
  (interactive)
  (onthemap-request 'logout nil
                    (lambda (result) (message "OnTheMap: %s" (onthemap--logout-sentence (plist-get result :upstream))))
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
(defface onthemap-label '((t :inherit shadow))
  "A place's name on the map (style code n).")

(defconst onthemap--style-faces
  '((?l . onthemap-land) (?b . onthemap-coast) (?p . onthemap-pin)
    (?m . onthemap-my-pin) (?c . onthemap-cluster) (?n . onthemap-label))
  "Style code of a map cell → face.  Water (a space) has none.")

(defconst onthemap-no-map-method
  "this onthemapd cannot draw maps yet: update onthemapd, then try again."
  "What `onthemap-map' says when the daemon has no `map' method.")

(defvar-local onthemap--map-view nil
  "The view params this map buffer asks for.")

(defvar-local onthemap--map-where nil
  "What the map shows, in words: \"the world\", a place's name.")

(defvar-local onthemap--map-where-found nil
  "Non-nil when `onthemap--map-where' is a name looked up here.
It is kept over the place the daemon names nearest the centre.")

(defvar-local onthemap--map-camera nil
  "(LATITUDE LONGITUDE ZOOM) of the map shown, from the daemon's view.")

(defvar-local onthemap--map-size nil
  "(WIDTH HEIGHT LEGEND) of the map shown: its cells, and legend lines on screen.")

(defvar-local onthemap--map-pins nil
  "The pins of the map shown, as the daemon numbered them.")

(defvar-local onthemap--map-legend nil
  "Where the map's legend starts (a marker): it is laid out again there.")

(defvar-local onthemap--map-summary nil
  "The line above the map's legend, whole, while a map is shown.")

(defvar-local onthemap--map-redraw-timer nil
  "The timer that draws the map again for its window's new size.")

(defvar-local onthemap--map-problem-text nil
  "What is shown in place of the map, whole and cleaned, or nil.
It is broken to the window's width again when that changes.")

(defvar-local onthemap--map-max-zoom nil
  "The closest zoom the daemon said it draws at the map shown, or nil.")

(defvar-local onthemap--map-changes-heard 0
  "How many times the daemon said its list changed while this map was open.
A map drawn from a request sent before the last of them (a zoom asked
for just before a post elsewhere) is drawn again.")

;; Where the map looks: a centre and a zoom, read from the daemon's view (Web Mercator)
;; and moved by the keys, as `onthemap map -i' moves its own.

(defconst onthemap--mercator-limit 85.0511287798066
  "The latitude where Web Mercator stops.")

(defconst onthemap--max-zoom 4096
  "The closest zoom the daemon's `map' method takes.")

(defun onthemap--mercator-y (latitude)
  "The Web Mercator y (0 at the top, 1 at the bottom) of LATITUDE."
  (let ((clipped (degrees-to-radians (max (- onthemap--mercator-limit) (min onthemap--mercator-limit latitude)))))
    (/ (- 1 (/ (log (tan (+ (/ float-pi 4) (/ clipped 2)))) float-pi)) 2)))

(defun onthemap--mercator-latitude (y)
  "The latitude at Web Mercator Y."
  (let ((v (* float-pi (- 1 (* 2 y)))))
    (radians-to-degrees (atan (/ (- (exp v) (exp (- v))) 2)))))

(defun onthemap--camera (view)
  "The (LATITUDE LONGITUDE ZOOM) a `map' result's VIEW is centred on, or nil."
  (let ((west (plist-get view :west)) (east (plist-get view :east))
        (north (plist-get view :north)) (south (plist-get view :south)) (zoom (plist-get view :zoom)))
    (when (and west east north south zoom)
      (let ((longitude (/ (+ west east) 2.0)))
        (list (onthemap--mercator-latitude (/ (+ (onthemap--mercator-y north) (onthemap--mercator-y south)) 2))
              (if (>= longitude 180) (- longitude 360) longitude)
              zoom)))))

(defun onthemap--camera-pan (camera dx dy width height)
  "CAMERA moved DX, DY quarters of a WIDTH × HEIGHT view (east and south positive)."
  (pcase-let* ((`(,latitude ,longitude ,zoom) camera)
               (lon (+ longitude (/ (* dx 90.0) zoom)))
               (span-y (/ (* 2.0 height) (* width zoom))))
    (list (max -85.0 (min 85.0 (onthemap--mercator-latitude (+ (onthemap--mercator-y latitude) (/ (* dy span-y) 4)))))
          (- lon (* 360 (floor (/ (+ lon 180) 360.0))))
          zoom)))

(defun onthemap--camera-zoom (camera factor)
  "CAMERA zoomed by FACTOR, within the daemon's range."
  (list (nth 0 camera) (nth 1 camera) (max 1 (min onthemap--max-zoom (* (nth 2 camera) factor)))))

(defun onthemap--zoom-text (zoom)
  "Write ZOOM as the title does: \"18\", \"2.5\"."
  (if (>= zoom 10)
      (number-to-string (floor (+ zoom 0.5)))
    (string-remove-suffix ".0" (format "%.1f" zoom))))

(defun onthemap--camera-where (camera)
  "Say where CAMERA is centred: \"48.86°N 2.35°E\"."
  (format "%.2f°%s %.2f°%s" (abs (nth 0 camera)) (if (< (nth 0 camera) 0) "S" "N")
          (abs (nth 1 camera)) (if (< (nth 1 camera) 0) "W" "E")))

(defun onthemap--map-legend-room (height)
  "How many legend lines stay on screen under a map in a window HEIGHT tall."
  (max 2 (min 8 (/ height 4))))

(defvar onthemap-map-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'onthemap-map-open-pin)
    (define-key map (kbd "g") #'revert-buffer)
    ;; = first: the key defined last is the one \[onthemap-map-zoom-in] names, "+" as the
    ;; map's hint line says.
    (define-key map (kbd "=") #'onthemap-map-zoom-in)
    (define-key map (kbd "+") #'onthemap-map-zoom-in)
    (define-key map (kbd "-") #'onthemap-map-zoom-out)
    (define-key map (kbd "H") #'onthemap-map-pan-west)
    (define-key map (kbd "S-<left>") #'onthemap-map-pan-west)
    (define-key map (kbd "L") #'onthemap-map-pan-east)
    (define-key map (kbd "S-<right>") #'onthemap-map-pan-east)
    (define-key map (kbd "K") #'onthemap-map-pan-north)
    (define-key map (kbd "S-<up>") #'onthemap-map-pan-north)
    (define-key map (kbd "J") #'onthemap-map-pan-south)
    (define-key map (kbd "S-<down>") #'onthemap-map-pan-south)
    (define-key map (kbd "0") #'onthemap-map-world)
    map)
  "Keys of `onthemap-map-mode'.")

(define-derived-mode onthemap-map-mode special-mode "OnTheMap-Map"
  "The map of OnTheMap as the daemon draws it, and the pins in view.
The header line names the place shown and the zoom.
\\<onthemap-map-mode-map>\\[onthemap-map-open-pin] opens the link of the pin at point (on the map or its line);
\\[onthemap-map-zoom-in] (or =) and \\[onthemap-map-zoom-out] zoom, \\[onthemap-map-pan-west] \\[onthemap-map-pan-south] \\[onthemap-map-pan-north] \\[onthemap-map-pan-east] (or shifted arrows) pan,
\\[onthemap-map-world] shows the whole world, \\[revert-buffer] draws the map again.
The map empties when you log out and is drawn again when you log in,
and when the daemon's list changes (a post, a refresh, here or elsewhere).

\\{onthemap-map-mode-map}"
  (setq-local revert-buffer-function (lambda (&rest _) (onthemap--map-fetch (current-buffer))))
  (setq truncate-lines t)
  (setq onthemap--follow (cons (lambda () (onthemap--map-fetch (current-buffer)))
                               (lambda () (onthemap--map-problem (current-buffer)
                                                                 (onthemap--in-emacs-words onthemap--not-logged-in nil)))))
  (add-hook 'kill-buffer-hook (lambda () (onthemap--status-release (current-buffer))) nil t)
  (add-hook 'window-size-change-functions #'onthemap--map-resized nil t)
  (onthemap--status-ensure))

(defun onthemap--paint-row (row styles)
  "Insert ROW with the faces of STYLES, one style code per character.
Each character is cleaned on its own (`onthemap--clean'), so that one
dropped takes its style code with it."
  (dotimes (i (length row))
    (let ((face (and (< i (length styles)) (alist-get (aref styles i) onthemap--style-faces)))
          (shown (onthemap--clean (string (aref row i)))))
      (insert (if face (propertize shown 'face face) shown))))
  (insert "\n"))

(defun onthemap--pins-text (count)
  "Say how many pins: COUNT pins, as \"3 pins\" or \"1 pin\"."
  (if (= count 1) "1 pin" (format "%s pins" (onthemap--grouped count))))

(defun onthemap--map-title (where view capped &optional limited)
  "The header line of a map of WHERE, drawn as VIEW; CAPPED: at the closest zoom.
LIMITED, the map's `limitedTo': a full cache, whose newest students alone are
drawn while the server may have more.  A mode-line construct: a \"%\" in WHERE
is doubled."
  (concat " Map of " (string-replace "%" "%%" (onthemap--clean where))
          (when (plist-get view :zoom) (concat " · zoom " (onthemap--zoom-text (plist-get view :zoom))))
          (when capped " (as close as the map goes)")
          (when (numberp limited) (format " · only the newest %s students" (onthemap--grouped limited)))))

(defconst onthemap--world-band '(79.5 . -55.5)
  "The latitudes the world view keeps when it can, north and south.
Tierra del Fuego to Greenland's north, as the daemon's world view keeps
them (the CLI's MapViewBand).")

(defun onthemap--degrees (latitude)
  "LATITUDE in whole degrees: \"71°N\", \"30°S\"."
  (format "%d°%s" (floor (+ (abs latitude) 0.5)) (if (< latitude 0) "S" "N")))

(defun onthemap--map-place-shown (where result)
  "Return WHERE for the title of the map RESULT, or where its world was cut.
A world view cut short by a low window, with pins left out, says so:
\"the world cut at 71°N, 30°S\", as `onthemap map -i' does."
  (let ((view (plist-get result :view))
        (outside (plist-get result :outside)))
    (if (and (equal where "the world") (numberp outside) (> outside 0)
             (numberp (plist-get view :zoom)) (< (plist-get view :zoom) 1.5)
             (or (< (plist-get view :north) (car onthemap--world-band))
                 (> (plist-get view :south) (cdr onthemap--world-band))))
        (format "the world cut at %s, %s"
                (onthemap--degrees (plist-get view :north)) (onthemap--degrees (plist-get view :south)))
      where)))

(defun onthemap-map-render (buffer result &optional where legend capped)
  "Paint the `map' RESULT (rows, styles, pins, view) into BUFFER.
WHERE names what it shows (in the header line, with the zoom);
LEGEND is how many legend lines fit on screen under it; CAPPED
says the zoom asked for was closer than the map goes."
  (with-current-buffer buffer
    (let* ((inhibit-read-only t)
           (rows (plist-get result :rows))
           (styles (plist-get result :styles))
           (pins (append (plist-get result :pins) nil))
           (where (or where "the world"))
           (shown (onthemap--map-place-shown where result)))
      (erase-buffer)
      (setq onthemap--map-problem-text nil
            header-line-format (onthemap--map-title shown (plist-get result :view) capped (plist-get result :limitedTo)))
      (dotimes (i (length rows))
        (onthemap--paint-row (aref rows i) (if (< i (length styles)) (aref styles i) "")))
      (setq onthemap--map-summary (concat (if pins (format "%s in view" (onthemap--pins-text (length pins))) "No pin in view")
                                          ;; The pins a world cut short leaves out, as the CLI counts them;
                                          ;; around a place, the rest is outside as a matter of course.
                                          (if (equal shown where) ""
                                            (format ", %s outside it" (onthemap--grouped (plist-get result :outside))))
                                          (if (and legend (> (length pins) legend))
                                              (format " (%s more below)" (onthemap--grouped (- (length pins) legend)))
                                            "")))
      (if (markerp onthemap--map-legend)
          (set-marker onthemap--map-legend (point))
        (setq onthemap--map-legend (copy-marker (point))))
      (setq onthemap--map-pins pins)
      (onthemap--map-insert-legend)
      (goto-char (point-min)))))

(defconst onthemap--map-hints '(" · RET opens · +/- zoom · H J K L pan · ? keys" " · RET opens · ? keys")
  "The map's key hints after its summary, the longest first.
The first that fits the window is shown; with none, \" · ? keys\", cut
with \"…\" if it must be.")

(defconst onthemap--legend-caps '(6 30 34 60)
  "The widest the map legend's columns get: number, name, place, link.")

(defun onthemap--pad (text width)
  "TEXT with spaces after it up to WIDTH columns."
  (concat text (make-string (max 0 (- width (string-width text))) ?\s)))

(defun onthemap--legend-lines (pins room)
  "The map legend's line of each of PINS, laid out in ROOM columns.
As the lists are laid out (`onthemap--natural-widths',
`onthemap--fit-widths'): the pin's number, its name, place and link,
two spaces apart; when they do not fit, the name, place and link give
way, cut with \"…\" (`onthemap--truncate'), and the number and your
own \"(you)\" stay whole."
  (let* ((rows (mapcar (lambda (pin)
                         (list (format "%s" (or (plist-get pin :n) ""))
                               (concat (onthemap--name pin) (if (onthemap--true-p (plist-get pin :mine)) onthemap--you ""))
                               (onthemap--clean (plist-get pin :mapString))
                               (onthemap--clean (plist-get pin :mediaURL))))
                       pins))
         (widths (onthemap--fit-widths (onthemap--natural-widths rows onthemap--legend-caps) '(0)
                                       (- room (* 2 (1- (length onthemap--legend-caps)))))))
    (cl-loop for row in rows
             for pin in pins
             collect (pcase-let ((`(,n ,name ,place ,link) row)
                                 (`(,n-width ,name-width ,place-width ,link-width) widths))
                       (concat (make-string (max 0 (- n-width (string-width n))) ?\s) n "  "
                               (onthemap--pad (onthemap--truncate
                                               (if (onthemap--true-p (plist-get pin :mine))
                                                   (onthemap--fit-keeping name onthemap--you name-width)
                                                 name)
                                               name-width)
                                              name-width)
                               "  " (onthemap--pad (onthemap--truncate place place-width) place-width)
                               "  " (onthemap--truncate link link-width))))))

(defun onthemap--with-hint (summary room)
  "SUMMARY and the longest of `onthemap--map-hints' that fits ROOM columns."
  (concat summary (or (seq-find (lambda (hint) (<= (string-width (concat summary hint)) room)) onthemap--map-hints)
                      " · ? keys")))

(defun onthemap--map-insert-legend ()
  "Insert the map's legend at point, laid out for the window.
That is its summary (cut to fit), then a line for each pin in view."
  (let ((room (onthemap--list-room))
        (pins onthemap--map-pins))
    (setq onthemap--laid-out-width room)
    (insert (propertize (onthemap--truncate (onthemap--with-hint onthemap--map-summary room) room) 'face 'shadow) "\n")
    (cl-loop for pin in pins
             for line in (onthemap--legend-lines pins room)
             do (insert (propertize (string-trim-right line) 'onthemap-pin pin) "\n"))))

(defun onthemap--map-resized (window)
  "Lay the legend of the map in WINDOW out again when its width changed.
A problem shown in place of the map is broken to the new width.
Point stays on its line and column.  The map itself is drawn again
for the new size once the window has kept it for a moment (a window
dragged wider asks the daemon once, not at every column)."
  (with-current-buffer (window-buffer window)
    (when (and onthemap--map-size (not onthemap--map-problem-text)
               (not (equal (seq-take (onthemap--map-cells (current-buffer)) 2) (seq-take onthemap--map-size 2))))
      (when (timerp onthemap--map-redraw-timer) (cancel-timer onthemap--map-redraw-timer))
      (setq onthemap--map-redraw-timer
            (run-at-time 0.3 nil (lambda (buffer)
                                   (when (buffer-live-p buffer)
                                     (with-current-buffer buffer (setq onthemap--map-redraw-timer nil))
                                     (onthemap--map-fetch buffer)))
                         (current-buffer))))
    (when (and (or onthemap--map-problem-text
                   (and onthemap--map-summary (markerp onthemap--map-legend)))
               (not (eql (onthemap--list-room) onthemap--laid-out-width)))
      (let* ((inhibit-read-only t)
             (here (save-excursion (goto-char (window-point window))
                                   (cons (line-number-at-pos) (current-column)))))
        (save-excursion
          (if onthemap--map-problem-text
              (progn (erase-buffer)
                     (onthemap--map-insert-problem))
            (delete-region onthemap--map-legend (point-max))
            (goto-char onthemap--map-legend)
            (onthemap--map-insert-legend)))
        (let ((point (save-excursion (goto-char (point-min))
                                     (forward-line (1- (car here)))
                                     (move-to-column (cdr here))
                                     (point))))
          (set-window-point window point)
          (when (eq window (selected-window)) (goto-char point)))))))

(defun onthemap--short-problem (text)
  "The first words of the problem TEXT, cleaned, to its first colon or stop.
That is \"Not logged in\" of \"Not logged in: run ...\", or \"cannot
reach onthemapd\" of \"cannot reach onthemapd.  Start ...\"."
  (let ((text (onthemap--clean text)))
    (string-trim (if (string-match "[:.]\\(?:[[:space:]]\\|\\'\\)" text)
                     (substring text 0 (match-beginning 0))
                   text))))

(defun onthemap--map-insert-problem ()
  "Insert the problem shown in place of the map, broken to the window's width."
  (let ((room (onthemap--list-room)))
    (setq onthemap--laid-out-width room)
    (insert (onthemap--wrap onthemap--map-problem-text room)
            "\n\ng tries again, q closes.\n")))

(defun onthemap--map-problem (buffer text)
  "In BUFFER, put TEXT in place of the map.
The header line says so too (\" No map · Not logged in\"): no title
of a map, or of a drawing, that is not shown."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (setq onthemap--map-pins nil
              onthemap--map-summary nil
              onthemap--map-problem-text (concat "OnTheMap: " (onthemap--clean text))
              header-line-format (concat " No map · " (string-replace "%" "%%" (onthemap--short-problem text))))
        (onthemap--map-insert-problem)
        (goto-char (point-min))))))

(defun onthemap--map-cells (buffer)
  "The (WIDTH HEIGHT LEGEND) the map gets in the window showing BUFFER."
  (let* ((window (get-buffer-window buffer))
         (width (if window (window-max-chars-per-line window) 80))
         (height (if window (window-body-height window) 22))
         (legend (onthemap--map-legend-room height)))
    (list (max 10 (min 1000 (1- width)))
          (max 5 (min 1000 (- height 1 legend)))
          legend)))

(defun onthemap--map-fetch (buffer &optional quiet)
  "Ask the daemon for the map sized to BUFFER's window, and paint it.
A place's name is looked up first, so the header line can say which
place it found (\"Atlantis, Western Cape, South Africa\").  QUIET (the
daemon's list changed, nobody asked): drawn again at the centre and
zoom shown, point and each window's cursor kept (`onthemap--map-places'),
nothing said; a failure leaves the map as it is and says nothing (the
status subscription tells a logout, which empties the map, or a daemon
gone, which draws it again once back).  Whatever is drawn from a
request sent before the last change heard (answered from the old list)
is drawn again quietly where it shows (`onthemap--map-changes-heard')."
  (let* ((drawn (buffer-local-value 'onthemap--map-camera buffer))
         (view (if quiet (onthemap--camera-view drawn) (buffer-local-value 'onthemap--map-view buffer)))
         (near (plist-get view :near)))
    (if (and (stringp near) (not (string-match-p onthemap--coordinates-regexp near)))
        (onthemap-request
         'geocode (list :query near :limit 1)
         (lambda (result)
           (when (buffer-live-p buffer)
             (if-let ((match (seq-first (plist-get result :results))))
                 (with-current-buffer buffer
                   (setq onthemap--map-view (append (list :near (list :latitude (plist-get match :latitude)
                                                                      :longitude (plist-get match :longitude)))
                                                    (when (plist-get view :radiusKm)
                                                      (list :radiusKm (plist-get view :radiusKm))))
                         onthemap--map-where (onthemap--place match)
                         onthemap--map-where-found t)
                   (onthemap--map-fetch buffer))
               (let ((error (list :message (format "No place matches \"%s\"." near))))
                 (onthemap--map-problem buffer (plist-get error :message))
                 (onthemap--report error "map")))))
         (lambda (error)
           (onthemap--map-problem buffer (plist-get error :message))
           (onthemap--report error "map")))
      (let* ((cells (onthemap--map-cells buffer))
             (params (append (list :width (nth 0 cells) :height (nth 1 cells)) view))
             (heard (buffer-local-value 'onthemap--map-changes-heard buffer)))
        (onthemap-request
         'map params
         (lambda (result)
           (when (and (buffer-live-p buffer)
                      ;; Quiet, unless something else was drawn meanwhile (a key, a resize, a logout).
                      (not (and quiet (with-current-buffer buffer
                                        (or (not (eq onthemap--map-camera drawn)) onthemap--map-problem-text)))))
             (with-current-buffer buffer
               (let* ((shown (plist-get result :view))
                      (camera (onthemap--camera shown))
                      (place (plist-get shown :place))
                      (max-zoom (plist-get shown :maxZoom))
                      ;; A daemon that names the closest zoom it draws is believed; otherwise a
                      ;; zoom asked for and not given is its cap.
                      (capped (and camera (or (and (plist-get view :zoom) (< (nth 2 camera) (* 0.999 (plist-get view :zoom))))
                                              (and (numberp max-zoom) (>= (nth 2 camera) max-zoom))))))
                 ;; Coordinates typed are named by the place the daemon names nearest them; a
                 ;; name looked up here keeps its own (Atlantis's centre is nearest a larger
                 ;; "Cape Town" on the daemon's map).
                 (when (and (plist-get view :near) (not onthemap--map-where-found)
                            (stringp place) (not (string-empty-p place)))
                   (setq onthemap--map-where place))
                 (setq onthemap--map-max-zoom (and (numberp max-zoom) max-zoom))
                 (setq onthemap--map-camera camera
                       onthemap--map-size cells
                       onthemap--needs-login nil
                       onthemap--needs-daemon nil)
                 (when (and capped (not quiet))
                   (message "OnTheMap: zoom %s is as close as the map goes here" (onthemap--zoom-text (nth 2 camera))))
                 (let ((places (and quiet (onthemap--map-places))))
                   (onthemap-map-render buffer result onthemap--map-where (nth 2 cells) capped)
                   (when places (onthemap--map-restore-places places)))
                 (when (< heard onthemap--map-changes-heard)
                   (onthemap--map-fetch buffer t))))))
         (lambda (error)
           (let ((error (if (eql (plist-get error :code) -32601) (list :kind 'daemon :message onthemap-no-map-method) error)))
             (cond ((not quiet)
                    (onthemap--note-failure buffer error)
                    (onthemap--map-problem buffer (plist-get error :message))
                    (onthemap--report error "map"))
                   ((not (or (onthemap--needs-login-p error) (eq (plist-get error :kind) 'daemon)))
                    (onthemap--note-failure buffer error))))))))))

(defun onthemap--map-places ()
  "Where the cursors in this map are: (CURSORS . PLACES).
CURSORS from `onthemap--cursors' (those on a pin's line); PLACES a
list of (WINDOW LINE COLUMN START), WINDOW nil for the buffer's point,
START the line at the window's top."
  (cons (onthemap--cursors)
        (mapcar (lambda (window)
                  (save-excursion
                    (goto-char (if window (window-point window) (point)))
                    (list window (line-number-at-pos) (current-column)
                          (and window (line-number-at-pos (window-start window))))))
                (cons nil (get-buffer-window-list (current-buffer) nil t)))))

(defun onthemap--map-restore-places (places)
  "Put the cursors of PLACES (from `onthemap--map-places') back.
Each on its line and column (the map drawn again where it looked has
the same rows), and one on a pin's line on that pin, wherever the
legend has it now; no window is selected."
  (pcase-dolist (`(,window ,line ,column ,start) (cdr places))
    (let ((position (save-excursion (goto-char (point-min)) (forward-line (1- line)) (move-to-column column) (point))))
      (cond ((null window) (goto-char position))
            ((and (window-live-p window) (eq (window-buffer window) (current-buffer)))
             (set-window-start window (save-excursion (goto-char (point-min)) (forward-line (1- start)) (point)) t)
             (set-window-point window position)))))
  (onthemap--restore-cursors (car places)))

(defun onthemap--map-where-of (view)
  "Say what VIEW is of, in words, before the daemon answers."
  (let ((near (plist-get view :near)))
    (cond ((equal (plist-get view :fit) "pins") "all pins")
          ((stringp near) near)
          ((and (plist-get near :latitude) (plist-get near :longitude))
           (onthemap--camera-where (list (plist-get near :latitude) (plist-get near :longitude))))
          (t "the world"))))

;;;###autoload
(defun onthemap-map (&optional view)
  "Show the map of the students, drawn by the daemon to fit the window.
VIEW is a plist passed to the daemon's `map' method, such as
\(:fit \"pins\") or (:near \"Paris\" :radiusKm 500); its radius is checked
as `onthemap-near' checks one (`onthemap--radius').  Interactively,
with a prefix argument, ask for a place to centre on."
  (interactive
   (list (when current-prefix-arg
           (let ((place (read-string "Map near (place or lat,lon): ")))
             (unless (string-empty-p place) (list :near place))))))
  (when (plist-get view :radiusKm)
    ;; Checked before any buffer changes; a blank radius is none.
    (let ((km (onthemap--radius (plist-get view :radiusKm))))
      (setq view (append (cl-loop for (key value) on view by #'cddr
                                  unless (eq key :radiusKm) append (list key value))
                         (when km (list :radiusKm km))))))
  (let ((buffer (get-buffer-create "*OnTheMap map*")))
    (pop-to-buffer-same-window buffer)
    (onthemap-map-mode)
    (setq onthemap--map-view view
          onthemap--map-where-found nil
          onthemap--map-where (onthemap--map-where-of view)
          header-line-format (concat " Drawing the map of " (string-replace "%" "%%" (onthemap--clean onthemap--map-where)) "…"))
    (let ((inhibit-read-only t)) (erase-buffer))
    (onthemap--map-fetch buffer)
    buffer))

(defun onthemap--camera-view (camera)
  "The `map' params showing CAMERA, or nil (the whole world) for none."
  (when camera
    (list :center (list :latitude (nth 0 camera) :longitude (nth 1 camera)) :zoom (nth 2 camera))))

(defun onthemap--map-go (camera where)
  "Draw the current map at CAMERA (nil: the whole world), showing WHERE."
  (setq onthemap--map-view (onthemap--camera-view camera)
        onthemap--map-where where)
  (onthemap--map-fetch (current-buffer)))

(defun onthemap--map-zoom (factor)
  "Zoom the map by FACTOR."
  (when onthemap--map-camera
    (let ((camera (onthemap--camera-zoom onthemap--map-camera factor)))
      (when (and onthemap--map-max-zoom (> (nth 2 camera) onthemap--map-max-zoom))
        (setf (nth 2 camera) (max (nth 2 onthemap--map-camera) onthemap--map-max-zoom)))
      (if (= (nth 2 camera) (nth 2 onthemap--map-camera))
          (message (if (> factor 1) "OnTheMap: zoom %s is as close as the map goes"
                     "OnTheMap: the whole world is in view")
                   (onthemap--zoom-text (nth 2 camera)))
        (onthemap--map-go camera onthemap--map-where)))))

(defun onthemap--map-pan (dx dy)
  "Move the map DX, DY quarters of its view (east and south positive)."
  (when onthemap--map-camera
    (let ((camera (onthemap--camera-pan onthemap--map-camera dx dy (nth 0 onthemap--map-size) (nth 1 onthemap--map-size))))
      (onthemap--map-go camera (onthemap--camera-where camera)))))

(defun onthemap-map-zoom-in ()
  "Zoom in: twice as close."
  (interactive)
  (onthemap--map-zoom 2))

(defun onthemap-map-zoom-out ()
  "Zoom out: twice as far."
  (interactive)
  (onthemap--map-zoom 0.5))

(defun onthemap-map-pan-west ()
  "Move the map west (left) by a quarter of its width."
  (interactive)
  (onthemap--map-pan -1 0))

(defun onthemap-map-pan-east ()
  "Move the map east (right) by a quarter of its width."
  (interactive)
  (onthemap--map-pan 1 0))

(defun onthemap-map-pan-north ()
  "Move the map north (up) by a quarter of its height."
  (interactive)
  (onthemap--map-pan 0 -1))

(defun onthemap-map-pan-south ()
  "Move the map south (down) by a quarter of its height."
  (interactive)
  (onthemap--map-pan 0 1))

(defun onthemap-map-world ()
  "Show the whole world."
  (interactive)
  (onthemap--map-go nil "the world"))

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
          ((null (cdr here)) (onthemap-open-link (plist-get (car here) :mediaURL) (onthemap--name (car here)) (plist-get (car here) :mediaURLDropped)))
          (t (let* ((choices (mapcar (lambda (p) (cons (format "%s, %s" (onthemap--name p) (onthemap--clean (plist-get p :mapString))) p))
                                     here))
                    (pin (cdr (assoc (completing-read "Which student? " choices nil t) choices))))
               (onthemap-open-link (plist-get pin :mediaURL) (onthemap--name pin) (plist-get pin :mediaURLDropped)))))))

;;;; The mode line

(defvar onthemap-status-mode)

(defvar onthemap--status nil
  "The daemon's last `status' result, or nil.")

(defvar onthemap--status-state 'idle
  "The subscription: `idle', `connecting', `online', `offline' or `refused'.
`refused': the daemon at the socket is another user's (see
`onthemap--status-refusal').")

(defvar onthemap--status-refusal nil
  "Why the mode line shows refused: whose the daemon is, and what to do.")

(defvar onthemap--status-connection nil
  "The connection subscribed to `statusChanged'.")

(defvar onthemap--status-timer nil
  "The timer that reconnects the subscription.")

(defvar onthemap--status-delay nil
  "Seconds before the next reconnection.")

(defvar onthemap-status-quiet-seconds 30
  "Seconds without a word from the daemon before the mode line asks it.
A stopped or stuck daemon sends no news, and the mode line stayed green
while `onthemap status' said offline; asked and silent for
`onthemap-timeout' seconds, it shows offline (`onthemap watch' asks too).")

(defvar onthemap--status-quiet-timer nil
  "The timer that asks a quiet daemon for its status.")

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

(defconst onthemap--place-length 24
  "The most characters of your pin's place the mode line shows, as the CLI's bars.
\"Llanfairpwllgwyngyll\" fits.")

(defun onthemap--short-place (place)
  "PLACE as the CLI's bars show it: its name, before the region and country.
That is \"Springfield\" of \"Springfield, Ohio, United States\"; a name
longer than `onthemap--place-length' characters is cut, ending in
\"…\".  A character is one with its combining marks, as the CLI
counts them."
  (let* ((name (substring place 0 (string-search "," place)))
         (starts (cl-loop for i from 0 below (length name)
                          when (or (= i 0)
                                   (not (memq (get-char-code-property (aref name i) 'general-category) '(Mn Mc Me))))
                          collect i)))
    (if (<= (length starts) onthemap--place-length)
        name
      (concat (substring name 0 (nth (1- onthemap--place-length) starts)) "…"))))

(defun onthemap--status-help (status)
  "The whole of STATUS, for the mode line's `help-echo', as the CLI's bar tooltip.
\"OnTheMap: 100 newest students; your pin: Georgia, United States; refreshed
just now\", or why the list is stale."
  (let ((students (plist-get status :students))
        (place (plist-get (plist-get status :myPin) :mapString)))
    (format "OnTheMap: %s newest students; %s; %s"
            (onthemap--grouped (or (plist-get students :count) 0))
            (if place (concat "your pin: " (onthemap--clean place)) "no pin of yours")
            (if (onthemap--true-p (plist-get students :stale))
                (concat "stale: " (onthemap--clean (or (plist-get students :lastError) "not refreshed lately")))
              (concat "refreshed " (onthemap--age (plist-get students :refreshedAt)))))))

(defun onthemap-status-string ()
  "Return the status for the mode line: \"📍 100 · Munich\", \"📍 offline\".
\"📍 refused\" when the daemon at the socket is another user's; its
`help-echo' says whose, and how to use your own.
The rule of the CLI's bars: your pin's place by its name alone, \" !\"
when the list is stale (the daemon could not refresh it lately), and
\"…\" until the first list after a login, rather than a count of 0.
The whole place, and why the list is stale, are its `help-echo'.
A mode-line construct: a \"%\" in it (a place is anyone's text) is doubled."
  (let ((status onthemap--status)
        (icon onthemap-mode-line-icon))
    (cond ((eq onthemap--status-state 'offline) (concat " " icon " offline"))
          ((eq onthemap--status-state 'refused)
           (propertize (concat " " icon " refused") 'help-echo
                       (concat "OnTheMap: " (string-replace "%" "%%" (onthemap--clean (or onthemap--status-refusal ""))))))
          ((null status) (concat " " icon " …"))
          ((not (onthemap--true-p (plist-get status :loggedIn))) (concat " " icon " logged out"))
          (t (let* ((students (plist-get status :students))
                    (place (plist-get (plist-get status :myPin) :mapString)))
               (if (not (or (plist-get students :refreshedAt) (plist-get students :lastError)))
                   (propertize (concat " " icon " …") 'help-echo "OnTheMap: fetching the student list")
                 (propertize
                  (concat " " icon " " (onthemap--grouped (or (plist-get students :count) 0))
                          (if place (concat " · " (string-replace "%" "%%" (onthemap--short-place (onthemap--clean place)))) "")
                          (if (onthemap--true-p (plist-get students :stale)) " !" ""))
                  'help-echo (onthemap--status-help status))))))))

(defun onthemap--status-set (state status)
  "Record the subscription's STATE and the daemon's STATUS; redraw mode lines.
Open lists and maps follow the session it shows."
  (setq onthemap--status-state state
        onthemap--status status)
  (force-mode-line-update t)
  (onthemap--follow-session status)
  (onthemap--follow-refreshed status)
  (run-hooks 'onthemap-status-hook))

(defun onthemap--follow-refreshed (status)
  "Bring each list's \"refreshed\" up to the daemon's STATUS.
A refresh that found nothing new (a 304) replaces no list, so nothing
else would move the summary's \"refreshed 2 min ago\"."
  (let ((students (and status (onthemap--true-p (plist-get status :loggedIn)) (plist-get status :students))))
    (when (plist-get students :refreshedAt)
      (dolist (buffer (onthemap--list-buffers))
        (with-current-buffer buffer
          (when (and onthemap--shown
                     (not (and (equal (plist-get onthemap--shown :refreshedAt) (plist-get students :refreshedAt))
                               (eq (onthemap--true-p (plist-get onthemap--shown :stale))
                                   (onthemap--true-p (plist-get students :stale))))))
            (setq onthemap--shown (plist-put (plist-put (copy-sequence onthemap--shown)
                                                        :refreshedAt (plist-get students :refreshedAt))
                                             :stale (plist-get students :stale)))
            (onthemap--update-summary)))))))

;; Open lists and maps follow the session: a logout (here, in the CLI or by expiry)
;; empties them at once, and a login fills them again, with no key pressed.  The
;; session is learnt from the status subscription, which runs while the mode line
;; shows the status or a list or map is open.

(defvar onthemap--session 'unknown
  "The session last seen: `unknown', nil (logged out) or the account's key.")

(defun onthemap--followers (&optional except)
  "The live lists and maps that follow the session, leaving out EXCEPT."
  (seq-filter (lambda (buffer) (and (not (eq buffer except)) (buffer-local-value 'onthemap--follow buffer)))
              (buffer-list)))

(defun onthemap--follow-session (status)
  "Empty the lists and maps after a logout; fill them after a login.
Fill those that waited for the daemon once it answers again.  STATUS is
the daemon's status, or nil when it is not known (offline)."
  (when status
    (let ((now (and (onthemap--true-p (plist-get status :loggedIn))
                    (or (plist-get (plist-get status :account) :key) t)))
          (before onthemap--session))
      (setq onthemap--session now)
      (dolist (buffer (onthemap--followers))
        (with-current-buffer buffer
          (cond ((null now)
                 (unless onthemap--needs-login
                   (setq onthemap--needs-login t)
                   (funcall (cdr onthemap--follow))))
                ((or onthemap--needs-login onthemap--needs-daemon
                     (and (not (eq before 'unknown)) (not (equal before now))))
                 (setq onthemap--needs-login nil
                       onthemap--needs-daemon nil)
                 (funcall (car onthemap--follow)))))))))

(defun onthemap--students-changed ()
  "Fetch the open lists and maps again once the daemon's list changed.
A post or a refresh, here or in another client.  Only lists that
show students and maps shown; a logout's change is left to the
status that follows it, which empties them.  Each map counts the
change (`onthemap--map-changes-heard'), for its requests under way."
  (when onthemap--session
    (dolist (buffer (onthemap--followers))
      (with-current-buffer buffer
        (unless (or onthemap--needs-login onthemap--needs-daemon)
          (when (derived-mode-p 'onthemap-map-mode)
            (setq onthemap--map-changes-heard (1+ onthemap--map-changes-heard)))
          (cond ((and (derived-mode-p 'onthemap-students-mode) onthemap--shown)
                 (onthemap--fetch buffer nil t))
                ((and (derived-mode-p 'onthemap-map-mode) onthemap--map-camera (not onthemap--map-problem-text))
                 (onthemap--map-fetch buffer t))))))))

(defun onthemap--status-wanted-p (&optional except)
  "Whether the subscription has a use: the mode line, or a list or map but EXCEPT."
  (or onthemap-status-mode (onthemap--followers except)))

(defun onthemap--status-ensure ()
  "Start the subscription if it has a use and is not running."
  (when (and (eq onthemap--status-state 'idle) (onthemap--status-wanted-p))
    (setq onthemap--status-delay onthemap-reconnect-delay)
    (onthemap--status-set 'connecting nil)
    (onthemap--status-connect)))

(defun onthemap--status-release (&optional except)
  "Stop the subscription unless more than EXCEPT (a buffer going away) needs it."
  (unless (onthemap--status-wanted-p except)
    (onthemap--status-unwatch)
    (onthemap--status-quiet-stop)
    (when (timerp onthemap--status-timer) (cancel-timer onthemap--status-timer))
    (setq onthemap--status-timer nil)
    (let ((connection onthemap--status-connection))
      (setq onthemap--status-connection nil)
      (when connection (onthemap--close connection)))
    (setq onthemap--session 'unknown)
    (onthemap--status-set 'idle nil)))

(defvar onthemap-status-hook nil
  "Run after the status shown by `onthemap-status-mode' changes.")

(defun onthemap--status-retry (&optional refusal)
  "Mark the daemon offline and try again later, waiting longer each time.
With REFUSAL (why: the daemon there is another user's), mark it
refused instead; it is tried again all the same, as a daemon of yours
may be started on that path later.  Meanwhile a new socket file is
looked for each second, so a daemon that starts is seen at once."
  (setq onthemap--status-connection nil)
  (onthemap--status-quiet-stop)
  (when (onthemap--status-wanted-p)
    (let ((state (if refusal 'refused 'offline)))
      (setq onthemap--status-refusal refusal)
      (unless (eq onthemap--status-state state) (onthemap--status-set state nil)))
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
    (when (and (onthemap--status-wanted-p) (null onthemap--status-connection)
               (cl-some (lambda (before after) (and (cdr after) (not (equal (cdr before) (cdr after)))))
                        onthemap--status-sockets now))
      (setq onthemap--status-sockets now
            onthemap--status-soon t
            onthemap--status-delay onthemap-reconnect-delay)
      (when (timerp onthemap--status-timer) (cancel-timer onthemap--status-timer))
      (onthemap--status-connect))))

(defun onthemap--status-connect ()
  "Open the subscription.
Subscribe to status changes (and to the students', for the open
lists and maps), then ask for the status."
  (setq onthemap--status-timer nil)
  (when (onthemap--status-wanted-p)
    (condition-case err
        (let ((connection
               (onthemap--connect "status"
                                  (lambda (method params)
                                    (pcase method
                                      ('statusChanged
                                       (onthemap--status-heard onthemap--status-connection)
                                       (onthemap--status-set 'online params))
                                      ('studentsChanged
                                       (onthemap--status-heard onthemap--status-connection)
                                       (onthemap--later #'onthemap--students-changed))))
                                  (lambda (connection)
                                    (when (eq connection onthemap--status-connection)
                                      (onthemap--later #'onthemap--status-retry
                                                       (and (onthemap--refused-p connection)
                                                            (plist-get (onthemap--refused-error connection)
                                                                       :message))))))))
          (setq onthemap--status-connection connection)
          (onthemap--status-unwatch)
          (jsonrpc-async-request connection 'subscribe '(:events ["status" "students"]) :timeout onthemap-timeout
                                 :timeout-fn (lambda () (onthemap--status-drop connection)))
          (onthemap--status-ask connection))
      (onthemap-refused (onthemap--status-retry (cadr err)))
      (error (onthemap--status-retry (and (onthemap--refused-p onthemap--status-connection)
                                          (plist-get (onthemap--refused-error onthemap--status-connection)
                                                     :message)))))))

(defun onthemap--status-drop (connection)
  "Close CONNECTION, a daemon that does not answer; its shutdown retries."
  (onthemap--close connection))

(defun onthemap--status-quiet-stop ()
  "Cancel the question to a quiet daemon."
  (when (timerp onthemap--status-quiet-timer) (cancel-timer onthemap--status-quiet-timer))
  (setq onthemap--status-quiet-timer nil))

(defun onthemap--status-heard (connection)
  "Note a word from the daemon on CONNECTION; ask it again after a quiet spell."
  (onthemap--status-quiet-stop)
  (setq onthemap--status-quiet-timer
        (run-at-time onthemap-status-quiet-seconds nil #'onthemap--status-ask connection)))

(defvar onthemap--status-caught-up nil
  "The subscription's connection whose first status was handled.
Nil before the first.  On a reconnection the open lists and maps
were fetched again then.")

(defun onthemap--status-ask (connection)
  "Ask the daemon on CONNECTION for its status: once connected, and when quiet.
No answer within `onthemap-timeout' seconds, the connection is dropped
and the mode line shows offline until the daemon answers again."
  (setq onthemap--status-quiet-timer nil)
  (when (and connection (eq connection onthemap--status-connection))
    (jsonrpc-async-request connection 'status nil :timeout onthemap-timeout
                           :success-fn (lambda (status)
                                         (setq onthemap--status-delay onthemap-reconnect-delay)
                                         (onthemap--status-heard connection)
                                         (onthemap--status-set 'online status)
                                         (unless (eq onthemap--status-caught-up connection)
                                           ;; A connection's first status after another's: while
                                           ;; none was open (a daemon restarted), the list may
                                           ;; have changed with nobody subscribed to hear it, and
                                           ;; this status's refreshedAt would say "refreshed just
                                           ;; now" over the rows shown.  Fetched again quietly, as
                                           ;; on a change.  Not on the first connection of all:
                                           ;; the first command made it, its own request is under
                                           ;; way, and a map opened first was drawn twice.
                                           (let ((reconnected onthemap--status-caught-up))
                                             (setq onthemap--status-caught-up connection)
                                             (when reconnected
                                               (onthemap--later #'onthemap--students-changed)))))
                           :error-fn (lambda (_) (onthemap--status-drop connection))
                           :timeout-fn (lambda () (onthemap--status-drop connection)))))

;;;###autoload
(define-minor-mode onthemap-status-mode
  "Show OnTheMap's status in the mode line, kept current by the daemon.
The mode line shows the number of students and your pin's place,
\"logged out\", or \"offline\" while the daemon cannot be reached
\(it reconnects by itself, within a second when a daemon starts and
binds its socket).  It shows \"refused\" when the daemon at the socket
is another user's (it is running, not yours); a command says whose,
and how to use your own (`onthemap-socket' or $ONTHEMAP_SOCKET)."
  :global t
  :group 'onthemap
  (if onthemap-status-mode
      (progn
        (unless global-mode-string (setq global-mode-string '("")))
        (unless (listp global-mode-string) (setq global-mode-string (list global-mode-string)))
        (add-to-list 'global-mode-string 'onthemap--mode-line t)
        (onthemap--status-ensure))
    (setq global-mode-string (delq 'onthemap--mode-line global-mode-string))
    ;; Open lists and maps may still follow the session through it.
    (onthemap--status-release)
    (force-mode-line-update t)))

(provide 'onthemap)
;;; onthemap.el ends here
