import Foundation

/// Writes one line to standard error, where diagnostics belong so `--json` output stays clean.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
