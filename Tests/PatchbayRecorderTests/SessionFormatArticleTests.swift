import Foundation
@_spi(Shell) @testable import PatchbayRecorder
import Testing

/// The DocC article on the session file format names every kind of line and every field, as the
/// format's one description (`SessionEvent+Format.swift`) has them.
@Suite("Session format article")
struct SessionFormatArticleTests {
    @Test func theArticleNamesEveryKindAndField() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/PatchbayRecorder/PatchbayRecorder.docc/SessionFileFormat.md").path
        let article = try String(contentsOfFile: path, encoding: .utf8)
        for (name, kind) in SessionEvent.Kind.byName {
            let row = article.split(separator: "\n").first { $0.hasPrefix("| `\(name)` |") }
            #expect(row != nil, "no row for \(name)")
            for field in kind.fields {
                #expect(row?.contains("`\(field.name)`") == true, "\(name) lacks \(field.name)")
            }
        }
    }
}
