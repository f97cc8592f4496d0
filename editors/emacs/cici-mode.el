;;; cici-mode.el --- Major mode for cici seed files  -*- lexical-binding: t; -*-

;; Copyright (c) 2026 The cici developers
;; SPDX-License-Identifier: MIT OR Apache-2.0

;; Version: 0.1.0
;; Package-Requires: ((emacs "26.1"))
;; Keywords: languages

;;; Commentary:

;; Highlighting, comments and indentation for `*.cici' seed files, and the
;; cici language server through eglot (Emacs 29 ships eglot):
;;
;;   (add-to-list 'load-path "/path/to/cici/editors/emacs")
;;   (require 'cici-mode)
;;   (add-hook 'cici-mode-hook #'eglot-ensure)
;;
;; The server is `cici lsp'; `cici' must be on `exec-path'
;; (`cargo install --path .' in the cici repository puts it in ~/.cargo/bin).

;;; Code:

(defgroup cici nil
  "The cici seed language."
  :group 'languages)

(defcustom cici-indent-offset 2
  "Indentation of a cici block, in columns."
  :type 'integer
  :group 'cici)

(defconst cici-keywords
  '("scenario" "family" "title" "task" "executor" "recipient" "public"
    "policy" "person" "role" "skills" "room" "capacity" "features" "meeting"
    "attendees" "slots" "rooms" "ticket" "needs" "hours" "pair" "with" "priority" "collaboration_heavy" "sensitive"
    "levels" "outcomes" "evidence" "rubric" "rules" "exclude" "when"
    "otherwise" "attribute" "holder" "about" "category" "raw" "sanitized"
    "visible" "all" "except" "fact" "soft" "claim" "oracle" "purpose" "norms" "share"
    "for" "groups" "reports_to")
  "Statement keywords of the seed language.")

(defconst cici-labels '("appropriate" "inappropriate")
  "Appropriateness labels of a form.")

(defconst cici-operators '("and" "or" "not" "in")
  "Word operators of rules and exclusions.")

(defconst cici-families
  '("meeting_allocation" "jira_allocation" "severity_classification"
    "policy_decision")
  "Scenario families.")

(defconst cici-days '("mon" "tue" "wed" "thu" "fri" "sat" "sun")
  "Day names of slots.")

(defvar cici-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    table)
  "Syntax table of `cici-mode'.")

(defvar cici-font-lock-keywords
  `((,(regexp-opt cici-keywords 'symbols) . font-lock-keyword-face)
    (,(regexp-opt cici-labels 'symbols) . font-lock-builtin-face)
    (,(regexp-opt cici-operators 'symbols) . font-lock-builtin-face)
    (,(regexp-opt cici-families 'symbols) . font-lock-type-face)
    (,(concat (regexp-opt cici-days 'symbols) "[ \t]+[0-9:]+-[0-9:]+")
     . font-lock-constant-face)
    ("\\_<\\(scenario\\|person\\|room\\|meeting\\|ticket\\|attribute\\)[ \t]+\\(\\(?:\\sw\\|\\s_\\)+\\)"
     2 font-lock-variable-name-face)
    ("\\_<\\(\\(?:\\sw\\|\\s_\\)+\\)(" 1 font-lock-function-name-face)
    ("->\\|!=\\|=\\|@\\|\\+" . font-lock-builtin-face)
    ("\\_<[0-9]+\\_>" . font-lock-constant-face))
  "Highlighting of `cici-mode'.")

(defun cici-indent-line ()
  "Indent the current line by the depth of its braces and brackets."
  (interactive)
  (let ((depth (save-excursion
                 (beginning-of-line)
                 (car (syntax-ppss))))
        (closing (save-excursion
                   (back-to-indentation)
                   (looking-at "[]})]"))))
    (indent-line-to (* cici-indent-offset (max 0 (if closing (1- depth) depth))))))

;;;###autoload
(define-derived-mode cici-mode prog-mode "cici"
  "Major mode for cici seed files."
  :syntax-table cici-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local indent-line-function #'cici-indent-line)
  (setq-local font-lock-defaults '(cici-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.cici\\'" . cici-mode))

(defvar eglot-server-programs)
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(cici-mode "cici" "lsp")))

(provide 'cici-mode)

;;; cici-mode.el ends here
