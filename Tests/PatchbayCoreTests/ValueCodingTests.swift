import Foundation
@_spi(Shell) import PatchbayCore
import PatchbayTestSupport
import Testing

// ValueEncoder and ValueDecoder: Codable straight to and from `Value`, as hosted stores
// encode their states and decode their actions.

private struct User: Codable, Equatable {
    var name: String
    var age: Int
    var email: String?
}

private struct Todo: Codable, Equatable {
    var title: String
    var done: Bool
    var tags: [String] = []
    var priority: Double = 1.5
}

private struct CodingState: Codable, Equatable {
    var user: User
    var todos: [Todo]
    var filter: Filter
    var counts: [String: Int]
    var byID: [Int: String]
    var nested: [[Int]]
    var tiny: Int8
    var big: UInt64
    var ratio: Float
}

private enum Filter: String, Codable, Equatable { case all, active, done }

private enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case point(Int, Int)
    case labeled(String, at: Int)
    case empty
    indirect case group([Shape], name: String?)
}

private func keys(_ value: Value) -> [String] {
    guard case .object(let members) = value else { return [] }
    return members.keys.map(\.string)
}

private func encode<T: Encodable>(_ value: T) throws -> Value { try ValueEncoder().encode(value) }
private func decode<T: Decodable>(_ type: T.Type, _ value: Value) throws -> T { try ValueDecoder().decode(type, from: value) }

private func todo(_ title: String) -> Value { ["title": .string(title), "done": false, "tags": [], "priority": 1.5] }

private func codingSample() -> CodingState {
    CodingState(
        user: User(name: "Ada", age: 36, email: nil),
        todos: [Todo(title: "milk", done: false, tags: ["shop"]), Todo(title: "eggs", done: true, priority: 3)],
        filter: .active, counts: ["a": 1, "b": 2], byID: [7: "seven", -1: "minus"], nested: [[1, 2], [], [3]],
        tiny: -8, big: UInt64(Int.max), ratio: 0.1)
}

@Suite struct ValueEncoderTests {
    @Test func aStructBecomesAnObjectInDeclarationOrder() throws {
        let value = try encode(codingSample())
        #expect(keys(value) == ["user", "todos", "filter", "counts", "byID", "nested", "tiny", "big", "ratio"])
        #expect(keys(value["user"]!) == ["name", "age"])
        #expect(value["user"] == ["name": "Ada", "age": 36])
        #expect(value["todos"] == [
            ["title": "milk", "done": false, "tags": ["shop"], "priority": 1.5],
            ["title": "eggs", "done": true, "tags": [], "priority": 3.0],
        ])
        #expect(value["filter"] == "active")
        #expect(value["counts"] == ["a": 1, "b": 2])
        #expect(value["byID"] == ["7": "seven", "-1": "minus"])
        #expect(value["nested"] == [[1, 2], [], [3]])
        #expect(value["tiny"] == -8)
        #expect(value["big"] == .int(Int.max))
        #expect(value["ratio"] == .decimal(0.1))
    }

    @Test func numbersKeepTheirKind() throws {
        guard case .decimal(let two) = try encode(2.0) else { Issue.record("2.0 is not a decimal"); return }
        #expect(two == 2)
        guard case .int(let min) = try encode(Int.min) else { Issue.record("Int.min is not an int"); return }
        #expect(min == Int.min)
        #expect(try encode([UInt8.max]) == [255])
        #expect(try encode(Optional<Int>.none) == .null)
        #expect(try encode([1, nil, 3] as [Int?]) == [1, nil, 3])
    }

    @Test func enumsEncodeAsSwiftsSynthesizedForms() throws {
        #expect(try encode(Shape.circle(radius: 2)) == ["circle": ["radius": 2.0]])
        #expect(try encode(Shape.point(1, 2)) == ["point": ["_0": 1, "_1": 2]])
        #expect(try encode(Shape.labeled("a", at: 3)) == ["labeled": ["_0": "a", "at": 3]])
        #expect(try encode(Shape.empty) == ["empty": [:]])
        #expect(try encode(Shape.group([.empty], name: nil)) == ["group": ["_0": [["empty": [:]]]]])
    }

    @Test func nonFiniteNumbersAreErrorsWithTheirPath() {
        var state = codingSample()
        state.todos[1].priority = .infinity
        #expect(throws: ValueCodingError(path: ["todos", "1", "priority"], message: "inf is not a finite number")) {
            try encode(state)
        }
        #expect(throws: ValueCodingError(path: ["circle", "radius"], message: "nan is not a finite number")) {
            try encode(Shape.circle(radius: .nan))
        }
        #expect(throws: ValueCodingError(path: ["0"], message: "-inf is not a finite number")) {
            try encode([-Double.infinity])
        }
    }

    @Test func unsignedIntegersAboveIntMaxAreErrors() {
        var state = codingSample()
        state.big = UInt64(Int.max) + 1
        #expect(throws: ValueCodingError(path: ["big"], message: "9223372036854775808 is above the largest integer, 9223372036854775807")) {
            try encode(state)
        }
    }

    @Test func nestedContainersAndSuperEncodersLandInTheirPlaces() throws {
        let value = try encode(Hand())
        #expect(value == ["first": 1, "inner": ["x": [true, ["deep": "yes"]]], "super": ["base": 0], "last": "end", "list": [["k": 1], [2]]])
        #expect(keys(value) == ["first", "inner", "list", "super", "last"])
        #expect(try decode(Hand.self, value) == Hand())
    }

    @Test func aValueThatEncodesNothingIsAnEmptyObject() throws {
        #expect(try encode(Nothing()) == [:])
    }
}

@Suite struct ValueDecoderTests {
    @Test func roundTripsGiveTheSameValues() throws {
        let state = codingSample()
        #expect(try decode(CodingState.self, encode(state)) == state)
        let shapes: [Shape] = [.circle(radius: 0.5), .point(-1, 2), .labeled("x", at: 0), .empty, .group([.empty, .point(0, 0)], name: "g")]
        #expect(try decode([Shape].self, encode(shapes)) == shapes)
        let optionals: [String?] = ["a", nil]
        #expect(try decode([String?].self, encode(optionals)) == optionals)
        #expect(try decode([Int].self, encode([Int.min, Int.max, 0])) == [Int.min, Int.max, 0])
        #expect(try decode(Double.self, encode(Double.greatestFiniteMagnitude)) == .greatestFiniteMagnitude)
        #expect(try decode(Double.self, encode(-0.0)).sign == .minus)
    }

    @Test func numbersAreLenientWhereItIsHarmless() throws {
        #expect(try decode(Int.self, .decimal(3.0)) == 3)
        #expect(try decode(Double.self, .int(3)) == 3.0)
        #expect(try decode(Float.self, .int(3)) == 3.0)
        #expect(throws: ValueCodingError(path: [], message: "expected an integer, found decimal")) { try decode(Int.self, .decimal(3.5)) }
        #expect(throws: ValueCodingError(path: ["0"], message: "300 does not fit in UInt8")) { try decode([UInt8].self, [300]) }
        #expect(throws: ValueCodingError(path: [], message: "-1 does not fit in UInt")) { try decode(UInt.self, -1) }
    }

    @Test func errorsNameThePathAndTheExpectedType() {
        func message<T: Decodable>(_ type: T.Type, _ value: Value) -> String {
            do {
                _ = try decode(type, value)
                return "no error"
            } catch {
                return (error as? ValueCodingError)?.description ?? "\(error)"
            }
        }
        #expect(message(User.self, ["name": 1, "age": 2]) == "name: expected a string, found int")
        #expect(message(User.self, ["name": "a"]) == "age: missing (expected an integer)")
        #expect(message(Todo.self, ["title": "a", "done": true, "priority": 1]) == "tags: missing (expected an array)")
        #expect(message(User.self, [1]) == "expected an object, found array")
        #expect(message([Todo].self, [todo("a"), todo("b"), ["title": "c", "done": 1, "tags": [], "priority": 1]])
            == "2.done: expected a bool, found int")
        #expect(message([Todo].self, ["x"]) == "0: expected an object, found string")
        #expect(message(Todo.self, ["title": "a", "done": true, "tags": "x", "priority": 1]) == "tags: expected an array, found string")
        #expect(message(Todo.self, ["title": "a", "done": true, "tags": [], "priority": "x"]) == "priority: expected a number, found string")
        #expect(message(User.self, ["name": nil, "age": 1]) == "name: expected a string, found null")
        #expect(message([String: Int].self, ["a": "b"]) == "a: expected an integer, found string")
        #expect(message(Filter.self, "gone") == "Cannot initialize Filter from invalid String value gone")
        #expect(message(Shape.self, ["circle": ["radius": "big"]]) == "circle.radius: expected a number, found string")
        #expect(message(Shape.self, ["circle": 1]) == "circle: expected an object, found int")
    }

    @Test func swiftsDecodingErrorsAreToldInTheSameWords() {
        func message(_ value: Value) -> String {
            do {
                _ = try decode(Strict.self, value)
                return "no error"
            } catch {
                return (error as? ValueCodingError)?.description ?? "\(error)"
            }
        }
        #expect(message(["kind": "mismatch", "n": "x"]) == "n: expected an integer, found string")
        #expect(message(["kind": "missing"]) == "n: missing")
        #expect(message(["kind": "null"]) == "n: expected an integer, found null")
        #expect(message(["kind": "corrupt"]) == "kind: that is not a kind")
    }

    @Test func theDifferentialAgainstJSONEncoderGivesEqualValues() throws {
        var random = SplitMix64(seed: 7)
        let jsonEncoder = JSONEncoder()
        let jsonDecoder = JSONDecoder()
        for _ in 0..<300 {
            let state = RandomState.make(&random, depth: 0)
            let ours = try encode(state)
            let theirs = try JSONReader.parse(Array(jsonEncoder.encode(state)))
            #expect(ours == theirs, "\(state)")
            #expect(try decode(RandomState.self, ours) == state)
            #expect(try decode(RandomState.self, theirs) == jsonDecoder.decode(RandomState.self, from: jsonEncoder.encode(state)))
        }
    }
}

/// A hand-written `Codable` type that uses nested containers and a super encoder.
private struct Hand: Codable, Equatable {
    enum Keys: String, CodingKey { case first, inner, last, list, x, deep, k, base }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .first)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        let superEncoder = container.superEncoder()
        try container.encode("end", forKey: .last)
        var x = inner.nestedUnkeyedContainer(forKey: .x)
        try x.encode(true)
        var deep = x.nestedContainer(keyedBy: Keys.self)
        try deep.encode("yes", forKey: .deep)
        var first = list.nestedContainer(keyedBy: Keys.self)
        try first.encode(1, forKey: .k)
        var second = list.nestedUnkeyedContainer()
        try second.encode(2)
        var base = superEncoder.container(keyedBy: Keys.self)
        try base.encode(0, forKey: .base)
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        guard try container.decode(Int.self, forKey: .first) == 1,
              try container.nestedContainer(keyedBy: Keys.self, forKey: .inner).nestedUnkeyedContainer(forKey: .x).count == 2,
              try container.superDecoder().container(keyedBy: Keys.self).decode(Int.self, forKey: .base) == 0,
              try container.decode(String.self, forKey: .last) == "end"
        else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not the hand")) }
    }
}

private struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// Throws each of Swift's decoding errors, as a hand-written `init(from:)` might.
private struct Strict: Decodable {
    enum Keys: String, CodingKey { case kind, n }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "mismatch":
            throw DecodingError.typeMismatch(Int.self, .init(codingPath: [Keys.n], debugDescription: "not an int"))
        case "missing":
            throw DecodingError.keyNotFound(Keys.n, .init(codingPath: [], debugDescription: "no n"))
        case "null":
            throw DecodingError.valueNotFound(Int.self, .init(codingPath: [Keys.n], debugDescription: "n is null"))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "that is not a kind")
        }
    }
}

/// Random nested values for the differential test.
private struct RandomState: Codable, Equatable {
    var id: Int
    var small: Int16
    var score: Double
    var name: String
    var flag: Bool?
    var children: [RandomState]
    var map: [String: [Int]]
    var shape: Shape?

    static func make(_ random: inout SplitMix64, depth: Int) -> RandomState {
        func int() -> Int {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .random(in: Int.min...Int.max, using: &random)
            case 1: return [Int.min, Int.max, 0, -1][Int.random(in: 0..<4, using: &random)]
            default: return .random(in: -1000...1000, using: &random)
            }
        }
        func double() -> Double {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return Double(Int.random(in: -100...100, using: &random))
            case 1: return [0.1, 1e-300, 1e300, -2.5, Double.greatestFiniteMagnitude][Int.random(in: 0..<5, using: &random)]
            default: return Double.random(in: -1e6...1e6, using: &random)
            }
        }
        let names = ["", "a", "ü", "tab\t", "quote\"", "😀", "slash/"]
        let shapes: [Shape?] = [nil, .empty, .circle(radius: double()), .point(int(), int()), .labeled(names[1], at: int())]
        return RandomState(
            id: int(), small: .random(in: Int16.min...Int16.max, using: &random), score: double(),
            name: names[Int.random(in: 0..<names.count, using: &random)],
            flag: [nil, true, false][Int.random(in: 0..<3, using: &random)],
            children: depth < 3 ? (0..<Int.random(in: 0..<3, using: &random)).map { _ in make(&random, depth: depth + 1) } : [],
            map: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0..<3, using: &random)).map { ("k\($0)", [int()]) }),
            shape: shapes[Int.random(in: 0..<shapes.count, using: &random)])
    }
}
