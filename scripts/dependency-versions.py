#!/usr/bin/env python3
"""Writes the dependency versions SwiftPM resolved (Package.resolved) as Swift source.

    dependency-versions.py PACKAGE.RESOLVED OUTPUT.swift

Run by the DependencyVersions build-tool plugin for the OnTheMapBuildInfo target. Without a
Package.resolved (not resolved yet), the list says so rather than failing the build.
"""
import json
import sys


def swift_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    resolved_path, output_path = sys.argv[1], sys.argv[2]
    try:
        with open(resolved_path, encoding="utf-8") as resolved:
            pins = json.load(resolved).get("pins", [])
    except (OSError, ValueError):
        pins = []
    lines = []
    for pin in sorted(pins, key=lambda pin: pin.get("identity", "")):
        state = pin.get("state", {})
        version = state.get("version") or state.get("branch") or "unversioned"
        lines.append("        .init(name: %s, version: %s, revision: %s, location: %s)," % (
            swift_string(pin.get("identity", "?")), swift_string(version),
            swift_string(state.get("revision", "")), swift_string(pin.get("location", ""))))
    source = (
        "// Generated at build time from Package.resolved by scripts/dependency-versions.py: do not edit.\n"
        "extension BuildDependencies {\n"
        "    /// The packages this build resolved, by name.\n"
        "    public static let pins: [Pin] = [\n" + "\n".join(lines) + "\n    ]\n}\n")
    with open(output_path, "w", encoding="utf-8") as output:
        output.write(source)


if __name__ == "__main__":
    main()
