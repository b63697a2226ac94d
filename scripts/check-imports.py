#!/usr/bin/env python3
"""Checks that every module a target imports is declared in Package.swift as its dependency.

An undeclared import builds locally as long as another target happened to build the module first,
and fails on a fresh clone. Usage: scripts/check-imports.py (exit 1 and a list when something is
missing). Run by `make test`.
"""
import os, re, subprocess, sys, json

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root,
                                      capture_output=True, text=True, check=True).stdout)
system = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Dispatch", "Testing",
          "XCTest", "Synchronization", "_Concurrency", "Darwin", "Musl", "os", "CoreFoundation",
          "sqlite3", "PackagePlugin"}  # sqlite3: a Python script inside a test's string; PackagePlugin: given to plugins by SwiftPM
missing = []
for target in described["targets"]:
    declared = set(target.get("target_dependencies", [])) | set(target.get("product_dependencies", []))
    path = os.path.join(root, target["path"])
    for directory, _, files in os.walk(path):
        for name in files:
            if not name.endswith(".swift"):
                continue
            with open(os.path.join(directory, name), encoding="utf-8") as source:
                for line in source:
                    match = re.match(r"\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)?import\s+(?:struct\s+|enum\s+|class\s+|func\s+)?(\w+)", line)
                    if not match:
                        continue
                    module = match.group(1)
                    if module in system or module == target["name"] or module in declared:
                        continue
                    missing.append(f"{target['name']}: {os.path.relpath(source.name, root)} imports {module}")
for line in sorted(set(missing)):
    print(line)
sys.exit(1 if missing else 0)
