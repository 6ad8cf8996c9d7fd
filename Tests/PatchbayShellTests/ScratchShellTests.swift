import Foundation
@_spi(Shell) import PatchbayShell
import Testing

/// A test's shell writes what it names by a relative path into a temporary directory of its
/// own, never into the package the tests run in (a command fuzzer's `record 😀stop` once
/// landed there and was committed).
struct ScratchShellTests {
    @Test func aRecordingNamedByARelativePathGoesIntoTheShellsOwnDirectory() throws {
        let shell = Shell.scratch()
        let directory = try #require(shell.options.directory)
        #expect(directory.hasPrefix(NSTemporaryDirectory()))
        #expect(shell.execute("record 😀stop").status == .success)
        shell.finish()
        #expect(FileManager.default.fileExists(atPath: directory + "/😀stop"))
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/😀stop"))
    }

    @Test func eachShellHasADirectoryOfItsOwnUnlessItIsGivenOne() {
        #expect(Shell.scratch().options.directory != Shell.scratch().options.directory)
        #expect(Shell.scratch(ShellOptions(directory: "/somewhere")).options.directory == "/somewhere")
    }
}
