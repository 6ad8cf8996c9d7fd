import Foundation
@_spi(Shell) @testable import PatchbayShell
@_spi(Shell) import PatchbayCore
import Testing

// How the shell reads the files a command names (`load`, `import devtools`): as a stream, a
// regular file only, and with a limit on what it holds whole.

@Suite("Reading files: streams, kinds and limits")
struct FileReadingShellTests {
    @Test func aLoadStopsAtTheFirstLineTooLongWithoutReadingTheRest() throws {
        let directory = TemporaryDirectory()
        // A line of 8 MiB, more than the limit: the reader stops in it, so it cannot say its length.
        let path = directory.write("long.pb", "var a = 1\n" + String(repeating: "x", count: 8 << 20) + "\nvar b = 2\n")
        let session = DataflowSession()
        let output = session.run("load \(path)")
        #expect(output.contains { $0.hasPrefix("\(path):2:1: error: line too long (more than 1048576 bytes; the limit is 1048576)") })
        #expect(try session.value("= a").isIdentical(to: 1))
        #expect(session.error("= b").contains("unknown name 'b'"))
    }

    /// /proc files say they hold nothing and are read as a stream: they are not skipped silently.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc (Linux)"))
    func aLoadReadsAFileThatSaysItIsEmpty() throws {
        let outcome = DataflowSession().outcome("load /proc/self/status")
        #expect(outcome.status == .failure)
        #expect(outcome.lines.contains { $0.text.hasPrefix("/proc/self/status:1:1: error: unknown command") })
    }

    @Test(arguments: ["load", "import devtools"])
    func aDeviceIsNotAFileToRead(command: String) {
        #expect(DataflowSession().error("\(command) /dev/zero") == "error: cannot read '/dev/zero': it is a device, not a regular file")
    }

    @Test func aPipeIsNotAFileToLoad() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(DataflowSession().error("load \(path)") == "error: cannot read '\(path)': it is a pipe (FIFO), not a regular file")
    }

    @Test func aDirectoryIsNotAFileToLoad() throws {
        let directory = TemporaryDirectory()
        #expect(DataflowSession().error("load \(directory.path)") == "error: cannot read '\(directory.path)': it is a directory")
    }

    @Test func importDevToolsRefusesAFileOverItsLimit() throws {
        let directory = TemporaryDirectory()
        let path = directory.write("big.json", "[" + String(repeating: " ", count: InputLimits.maxDevToolsFileBytes) + "]")
        let session = DataflowSession()
        #expect(session.error("import devtools \(path) s")
            == "error: cannot read '\(path)': it is larger than 16 MiB, the most 'import devtools' reads; import a smaller export")
        #expect(session.outcome("state s").status == .failure)
    }
}

@Suite("Writing files: what a path is")
struct FileWritingShellTests {
    // A pipe, not a device: a writer that replaced what it names (as this one did before) must
    // not take /dev/null from a test run as root.
    @Test(arguments: ["save", "graph --dot"])
    func aPipeIsNotReplacedByAFile(command: String) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/fifo"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(DataflowSession().error("\(command) \(path) --force") == "error: cannot write '\(path)': it is a pipe (FIFO), not a regular file")
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "needs /proc (Linux)"))
    func aDirectoryThatTakesNoNewFileSaysSo() {
        #expect(DataflowSession().error("save /proc/self/status --force")
            == "error: cannot write '/proc/self/status': its directory takes no new file (FILE is written beside itself, then renamed over); choose another place")
    }
}
