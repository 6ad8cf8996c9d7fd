import Foundation
import Testing

/// ARCHITECTURE.md names the modules, types and files a newcomer starts from: each name it puts
/// in backquotes is checked against the sources, so that a renamed type or a moved file makes the
/// page fail here instead of misleading its reader.
@Suite("ARCHITECTURE.md")
struct ArchitectureDocumentTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The spans in backquotes, outside code blocks.
    static func codeSpans(in text: String) -> [String] {
        var spans: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continue
            }
            guard !inBlock else { continue }
            for match in line.matches(of: /`([^`]+)`/) { spans.append(String(match.output.1)) }
        }
        return spans
    }

    /// The names that the Swift sources under `Sources/` declare: types (after `class`, `struct`,
    /// `enum`, `protocol`, `actor` or `typealias`) and members (after `func`, `var`, `let` or
    /// `case`), found by splitting each file into words.
    static let declared: (types: Set<String>, members: Set<String>) = {
        let directory = root.appendingPathComponent("Sources")
        var types: Set<String> = [], members: Set<String> = []
        let paths = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        for path in paths where path.hasSuffix(".swift") {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8) else { continue }
            let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
            for (word, next) in zip(words, words.dropFirst()) {
                switch word {
                case "class", "struct", "enum", "protocol", "actor", "typealias": types.insert(String(next))
                case "func", "var", "let", "case": members.insert(String(next))
                default: break
                }
            }
        }
        return (types, members)
    }()

    /// Every file and directory under `Sources/` and `Tests/`, by its path from the root.
    static let paths: [String] = ["Sources", "Tests"].flatMap { top in
        (FileManager.default.enumerator(atPath: root.appendingPathComponent(top).path)?.compactMap { $0 as? String } ?? []).map { top + "/" + $0 }
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// Whether `span` names something in the repository: a type declared in `Sources/` (with a
    /// member, for `Type.member` and `Type.member(label:)`), a module, or a file or directory.
    /// `nil` for spans that are not names (commands, flags, values).
    static func check(_ span: String) -> String? {
        let modules = Set((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path)) ?? [])
        if span.wholeMatch(of: /[A-Za-z0-9_+-]+\.(swift|md|docc)/) != nil {
            // A file (or a catalog) at the root, or anywhere under Sources/ or Tests/.
            guard exists(span) || paths.contains(where: { $0.hasSuffix("/" + span) }) else { return "no file \(span)" }
            return nil
        }
        if let match = span.wholeMatch(of: /([A-Z][A-Za-z0-9]*)(?:<[^>]*>)?(?:\.([a-z][A-Za-z0-9]*)(?:\([^)]*\))?)?/) {
            let (type, member) = (String(match.output.1), match.output.2.map(String.init))
            guard declared.types.contains(type) || modules.contains(type) else { return "no type or module \(type) in Sources/" }
            if let member, !declared.members.contains(member) { return "no member \(member) of \(type) in Sources/" }
            return nil
        }
        if modules.contains(span) { return nil }
        if span.contains("/"), span.wholeMatch(of: /[A-Za-z0-9_.+-]+(\/[A-Za-z0-9_.+-]+)*\/?/) != nil {
            // A path from the root, or the end of one under Sources/ or Tests/.
            let path = span.hasSuffix("/") ? String(span.dropLast()) : span
            guard exists(path) || paths.contains(where: { $0.hasSuffix("/" + path) }) else { return "no file or directory \(span)" }
            return nil
        }
        return nil
    }

    @Test func everyNameItMentionsExists() throws {
        let spans = Self.codeSpans(in: try Self.read("ARCHITECTURE.md"))
        #expect(spans.count > 50)
        for span in Set(spans).sorted() {
            if let problem = Self.check(span) { Issue.record("ARCHITECTURE.md: `\(span)`: \(problem)") }
        }
    }

    /// The check itself finds what is not there.
    @Test func aNameThatIsNotThereIsFound() {
        #expect(Self.check("StoreNode") == nil)
        #expect(Self.check("Graph.dispatch") == nil)
        #expect(Self.check("Shell+Stores.swift") == nil)
        #expect(Self.check("Store.swift") == nil)
        #expect(Self.check("PatchbayCore.docc") == nil)
        #expect(Self.check("NoSuchCatalog.docc") != nil)
        #expect(Self.check("Commands/Stores/StoreReports.swift") == nil)
        #expect(Self.check("NoSuchType") != nil)
        #expect(Self.check("Graph.noSuchMember") != nil)
        #expect(Self.check("NoSuchFile.swift") != nil)
        #expect(Self.check("Sources/NoSuchModule") != nil)
        #expect(Self.check("NoSuchFolder/") != nil)
        #expect(Self.check("Interpreter/") == nil)
        #expect(Self.check("dispatch app Add {by: 2}") == nil)
    }

    /// Every module in `Sources/` has its row, and the page is linked from the README.
    @Test func everyModuleIsDescribedAndTheReadmeLinksIt() throws {
        let text = try Self.read("ARCHITECTURE.md")
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path).filter { !$0.hasPrefix(".") }
        #expect(!modules.isEmpty)
        for module in modules {
            #expect(text.contains("`\(module)`"), "ARCHITECTURE.md does not name the module \(module)")
        }
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { $0.firstMatch(of: /^\| `([^`]+)`/).map { String($0.output.1) } }
        let package = try Self.read("Package.swift")
        for module in modules where module != "CLibEdit" {
            #expect(rows.contains(module), "no row for \(module) in ARCHITECTURE.md's modules")
            #expect(package.contains("name: \"\(module)\""), "\(module) is not a target of Package.swift")
        }
        #expect(try Self.read("README.md").contains("(ARCHITECTURE.md)"))
    }
}
