import Foundation
import Testing

/// `patchbay-core-check`, a program that depends on PatchbayCore alone, as an app's core
/// library would: it links without Foundation and runs.
@Suite("A program on PatchbayCore alone")
struct CoreOnlyProgramTests {
    private var program: URL { PatchbayProcess.binary.deletingLastPathComponent().appendingPathComponent("patchbay-core-check") }

    @Test func itLinksAndRunsAStoreWithoutFoundation() throws {
        let child = try ChildProcess(program)
        child.closeInput()
        #expect(child.waitForExit("patchbay-core-check"))
        #expect(child.status == 0)
        #expect(child.printed == "{type: \"add\", reading: 2.5}\n{count: 2, readings: [2.5, -1.5]}\n")
    }

    /// Whether executables here are ELF (Linux), which `neededLibraries` reads.
    static let isLinux: Bool = {
        #if os(Linux)
        true
        #else
        false
        #endif
    }()

    @Test(.enabled(if: isLinux, "reads an ELF executable"))
    func itNeedsNoFoundationLibrary() throws {
        let libraries = try Self.neededLibraries(of: program.path)
        #expect(!libraries.contains { $0.contains("Foundation") }, "\(libraries)")
    }

    /// The `DT_NEEDED` libraries of an ELF64 little-endian executable: what it was linked
    /// against directly.
    private static func neededLibraries(of path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func integer(_ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        let sections = integer(0x28, 8), sectionSize = integer(0x3A, 2), sectionCount = integer(0x3C, 2)
        var dynamic: (offset: Int, size: Int, link: Int)?
        for index in 0..<sectionCount where integer(sections + index * sectionSize + 4, 4) == 6 {  // SHT_DYNAMIC
            let header = sections + index * sectionSize
            dynamic = (integer(header + 0x18, 8), integer(header + 0x20, 8), integer(header + 0x28, 4))
        }
        guard let dynamic else { return [] }
        let strings = integer(sections + dynamic.link * sectionSize + 0x18, 8)
        var names: [String] = []
        for entry in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size, by: 16) where integer(entry, 8) == 1 {  // DT_NEEDED
            let start = strings + integer(entry + 8, 8)
            let end = bytes[start...].firstIndex(of: 0) ?? start
            names.append(String(decoding: bytes[start..<end], as: UTF8.self))
        }
        return names
    }
}
