import Foundation
import Testing

/// The README is the front door: the two commands first, links that lead to files of the
/// repository, and a package snippet that names the package's own products.
@Suite("README front door")
struct ReadmeFrontDoorTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The first code block, right after the introduction, is the two commands.
    @Test func theTwoCommandsComeFirst() throws {
        let readme = try Self.read("README.md")
        let blocks = readme.components(separatedBy: "```")
        #expect(blocks.count > 2)
        let intro = blocks[0].split(separator: "\n").filter { !$0.isEmpty }
        #expect(intro.first == "# Patchbay")
        #expect(!intro.dropFirst().contains { $0.hasPrefix("#") }, "nothing but the introduction before the two commands")
        let commands = blocks[1].split(separator: "\n")
        #expect(commands.first == "sh")
        #expect(commands.dropFirst().map { $0.prefix(12) } == ["./dev run   ", "./dev test  "])
    }

    /// Every link of the README and of ARCHITECTURE.md is a relative path to something in the
    /// repository.
    @Test func everyLinkLeadsIntoTheRepository() throws {
        for document in ["README.md", "ARCHITECTURE.md"] {
            let text = try Self.read(document)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.output.1)
                let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
                #expect(!target.contains("://") && !path.hasPrefix("/") && !path.split(separator: "/").contains(".."),
                        "\(document) links outside the repository: \(target)")
                #expect(path.isEmpty || FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                        "\(document) links to \(target), which is not in the repository")
            }
        }
        #expect(try Self.read("README.md").contains("](ARCHITECTURE.md)"))
    }

    /// The package snippet depends on products that the package has.
    @Test func theSnippetNamesThePackagesProducts() throws {
        let readme = try Self.read("README.md")
        let manifest = try Self.read("Package.swift")
        let products = readme.matches(of: /\.product\(name: "([A-Za-z]+)", package: "Patchbay"\)/).map { String($0.output.1) }
        #expect(Set(products) == ["PatchbayCore", "PatchbayHost", "PatchbayRecorder"])
        for product in products {
            #expect(manifest.contains(".library(name: \"\(product)\""), "Package.swift has no library \(product)")
        }
    }

    /// No document or comment sends the reader to files outside the repository.
    @Test func nothingPointsOutsideTheRepository() throws {
        let outside = ["../" + "shared", "SP" + "EC"]
        var files = ["README.md", "ARCHITECTURE.md", "Package.swift"]
        for top in ["Sources", "Tests", "Examples", "Benchmarks", "sessions"] {
            guard let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(top).path) else { continue }
            while let path = enumerator.nextObject() as? String {
                // The example and benchmark packages' build directories are not the repository's.
                if path.hasSuffix(".build") { enumerator.skipDescendants(); continue }
                if [".swift", ".md", ".pb"].contains(where: path.hasSuffix) { files.append(top + "/" + path) }
            }
        }
        #expect(files.count > 100)
        for file in files {
            guard let text = try? Self.read(file) else { continue }
            for word in outside {
                let pattern = try Regex(word.hasPrefix("..") ? NSRegularExpression.escapedPattern(for: word) : "\\b\(word)\\b")
                #expect(!text.contains(pattern), "\(file) mentions \(word)")
            }
        }
    }
}
