#!/bin/sh
# Checks that nothing a build or a run writes is tracked: Python's byte code (a tracked .pyc changes
# with every run of its script and every Python version), SwiftPM's build folders and
# Package.resolved (left out on purpose: a clone resolves its own from Package.swift). Run by
# `make test`; exit 1 with the list otherwise.
cd "$(dirname "$0")/.." || exit 1
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "SKIPPED: the tracked-file check (not a git checkout)"
    exit 0
fi
tracked="$(git ls-files | grep -E '(^|/)(__pycache__/|\.build[^/]*/|Package\.resolved$)|\.py[co]$')"
if [ -n "$tracked" ]; then
    echo "These files are written by builds or runs and must not be tracked (git rm --cached them):"
    echo "$tracked"
    exit 1
fi
