#!/usr/bin/env bash
# Prints the version of OnTheMap, read from the one place it is written
# (Sources/OnTheMapModels/OnTheMapVersion.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
sed -n 's/^ *public static let string = "\([^"]*\)"$/\1/p' Sources/OnTheMapModels/OnTheMapVersion.swift
