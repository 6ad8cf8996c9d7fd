import Foundation
@_spi(Shell) @testable import PatchbayShell
import Testing

/// The command reference in the DocC catalog is the shell's own help: regenerate it with
/// `PATCHBAY_UPDATE_DOCS=1 swift test --filter CommandReference` after changing a command.
@Suite("Command reference")
struct CommandReferenceTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/PatchbayHost/PatchbayHost.docc/CommandReference.md").path

    @Test func theArticleIsTheShellsHelp() throws {
        if ProcessInfo.processInfo.environment["PATCHBAY_UPDATE_DOCS"] == "1" {
            try CommandReference.markdown.write(toFile: Self.path, atomically: true, encoding: .utf8)
        }
        let article = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(article == CommandReference.markdown, "run PATCHBAY_UPDATE_DOCS=1 swift test --filter CommandReference")
    }

    @Test func everyCommandIsInIt() {
        for info in CommandCatalog.commands {
            #expect(CommandReference.markdown.contains("\n### \(info.name)\n"))
        }
    }
}
