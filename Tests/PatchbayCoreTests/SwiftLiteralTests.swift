import Foundation
@testable import PatchbayCore
import Testing

/// An enum with every shape of case the exporter writes.
indirect enum ExportShape: Codable, Equatable {
    case plain
    case labeled(name: String)
    case positional(Int, String)
    case mixed(Int, label: Bool?)
    case nested(ExportPoint)
}

struct ExportPoint: Codable, Equatable {
    var x: Int
    var y: Double
    var tags: [String]
    var notes: [String: Int]
    var parent: ExportShape?
}

final class ExportBox: Codable {}

struct Stamped: Codable {
    var when: Date
}

@Suite("Swift literals for export swift-test")
struct SwiftLiteralTests {
    let literal = SwiftLiteral(module: "PatchbayCoreTests")

    @Test func enumCasesKeepTheirLabels() throws {
        #expect(try literal.write(ExportShape.plain, at: "a") == "ExportShape.plain")
        #expect(try literal.write(ExportShape.labeled(name: "Max"), at: "a") == #"ExportShape.labeled(name: "Max")"#)
        #expect(try literal.write(ExportShape.positional(1, "x"), at: "a") == #"ExportShape.positional(1, "x")"#)
        #expect(try literal.write(ExportShape.mixed(-3, label: nil), at: "a") == "ExportShape.mixed(-3, label: nil)")
        #expect(try literal.write(ExportShape.mixed(0, label: true), at: "a") == "ExportShape.mixed(0, label: true)")
    }

    @Test func structsArraysDictionariesAndOptionalsNest() throws {
        let point = ExportPoint(x: 1, y: 2.5, tags: ["a", "b"], notes: ["n": 1], parent: .nested(ExportPoint(x: 0, y: 0, tags: [], notes: [:], parent: nil)))
        #expect(try literal.write(point, at: "a") == #"ExportPoint(x: 1, y: 2.5, tags: ["a", "b"], notes: ["n": 1], "#
            + "parent: ExportShape.nested(ExportPoint(x: 0, y: 0.0, tags: [], notes: [:], parent: nil)))")
    }

    @Test func stringsAreEscaped() throws {
        #expect(try literal.write("a \"b\" \\ c\n\t\u{1}é", at: "a") == #""a \"b\" \\ c\n\t\u{1}é""#)
    }

    @Test func whatCannotBeWrittenIsAnErrorNamingIt() {
        #expect(throws: SwiftExportError.self) { try literal.write(ExportBox(), at: "action #1") }
        let date = Stamped(when: Date(timeIntervalSince1970: 0))
        #expect { try literal.write(date, at: "action #2") } throws: { error in
            // Foundation.Date, or FoundationEssentials.Date where Foundation is split.
            let message = (error as? SwiftExportError)?.message ?? ""
            return message.hasPrefix("action #2.when: ") && message.contains("Date cannot be written as a Swift literal")
        }
        #expect(throws: SwiftExportError.self) { try literal.write(Double.nan, at: "a") }
    }

    @Test func theModuleComesFromTheTypesName() {
        #expect(SwiftLiteral.module(of: ExportPoint.self) == "PatchbayCoreTests")
        #expect(SwiftLiteral.module(of: Int.self) == "Swift")
    }
}
