import Foundation
@_spi(Shell) import PatchbayCore

/// A hosted store's overhead per dispatch: the whole state encoded to a `Value` and the action
/// decoded from its action object. The state is small: a user and a list of 10 todos. Ours
/// (`ValueEncoder`, `ActionMapping.codable()`) against Foundation's JSONEncoder read back with
/// `JSONReader` (the naive way, which the Recorder used before) and against JSONDecoder.
struct CodableBenchmarks: BenchmarkGroup {
    let name = "Codable"

    func rows(for mode: Mode) -> [BenchmarkRow] {
        let n = mode == .quick ? 20_000 : 200_000
        return [
            BenchmarkRow(
                id: "C1", title: "encode the state (user + 10 todos) to a Value",
                ours: Self.encodeState(n),
                reference: Reference(kind: .naive, name: "JSONEncoder + JSONReader", workload: Self.encodeStateThroughJSON(n)),
                target: .all([.nanosecondsBelow(2_000), .ratioAtMost(0.5)]),
                secondReference: Reference(kind: .floor, name: "the Value built by hand", workload: Self.buildStateByHand(n))
            ),
            BenchmarkRow(
                id: "C2", title: "decode the action {type: addTodo, title} from a Value",
                ours: Self.decodeAction(n),
                reference: Reference(kind: .peer, name: "JSONDecoder of the JSON text", workload: Self.decodeActionFromJSON(n)),
                target: .all([.nanosecondsBelow(1_000), .ratioAtMost(0.5)])
            ),
            BenchmarkRow(
                id: "C3", title: "hosted dispatch overhead: decode the action + encode the state",
                ours: Self.dispatchOverhead(n),
                reference: nil,
                target: .nanosecondsBelow(2_000)
            ),
        ]
    }

    struct User: Codable {
        var id: Int
        var name: String
        var email: String?
    }

    struct Todo: Codable {
        var id: Int
        var title: String
        var done: Bool
    }

    struct AppState: Codable {
        var user: User
        var todos: [Todo]
        var filter: String
    }

    enum Action: Codable {
        case addTodo(title: String)
        case toggle(id: Int)
        case clearDone
    }

    static func state(_ seed: Int) -> AppState {
        AppState(
            user: User(id: seed, name: "Ada", email: "ada@example.com"),
            todos: (0..<10).map { Todo(id: $0 + seed, title: "todo \($0)", done: $0 % 2 == 0) }, filter: "all")
    }

    /// The checksum of a state value: its user's id plus its todos' count.
    static func check(_ value: Value) -> Int {
        guard case .int(let id)? = value["user"]?["id"], case .array(let todos)? = value["todos"] else { return -1 }
        return id + todos.count
    }

    static func encodeState(_ n: Int) -> Workload {
        Workload(operations: n) {
            let encoder = ValueEncoder()
            let states = (0..<8).map(state)
            return Trial(expectedChecksum: (0..<n).reduce(0) { $0 + $1 % 8 + 10 }) {
                var sum = 0
                for i in 0..<n { sum += check(try encoder.encode(states[i % 8])) }
                return sum
            }
        }
    }

    /// The floor: the same `Value` written out by hand, with each object's members in one
    /// literal and the todos' array reserved.
    static func buildStateByHand(_ n: Int) -> Workload {
        Workload(operations: n) {
            let states = (0..<8).map(state)
            return Trial(expectedChecksum: (0..<n).reduce(0) { $0 + $1 % 8 + 10 }) {
                var sum = 0
                for i in 0..<n { sum += check(byHand(states[i % 8])) }
                return sum
            }
        }
    }

    @inline(never)
    static func byHand(_ state: AppState) -> Value {
        var todos: [Value] = []
        todos.reserveCapacity(state.todos.count)
        for todo in state.todos { todos.append(["id": .int(todo.id), "title": .string(todo.title), "done": .bool(todo.done)]) }
        let user: Value = ["id": .int(state.user.id), "name": .string(state.user.name), "email": state.user.email.map(Value.string) ?? .null]
        return ["user": user, "todos": .array(todos), "filter": .string(state.filter)]
    }

    static func encodeStateThroughJSON(_ n: Int) -> Workload {
        Workload(operations: n) {
            let encoder = JSONEncoder()
            let states = (0..<8).map(state)
            return Trial(expectedChecksum: (0..<n).reduce(0) { $0 + $1 % 8 + 10 }) {
                var sum = 0
                for i in 0..<n { sum += check(try JSONReader.parse(Array(encoder.encode(states[i % 8])))) }
                return sum
            }
        }
    }

    static let actionObjects: [Value] = (0..<8).map { ["type": "addTodo", "title": .string("todo \($0)")] }

    static func decodeAction(_ n: Int) -> Workload {
        Workload(operations: n) {
            let mapping = ActionMapping<Action>.codable()
            let objects = actionObjects
            return Trial(expectedChecksum: (0..<n).reduce(0) { $0 + "todo \($1 % 8)".utf8.count }) {
                var sum = 0
                for i in 0..<n {
                    if case .addTodo(let title) = try mapping.action(from: objects[i % 8]) { sum += title.utf8.count }
                }
                return sum
            }
        }
    }

    static func decodeActionFromJSON(_ n: Int) -> Workload {
        Workload(operations: n) {
            let decoder = JSONDecoder()
            let texts = (0..<8).map { Data(#"{"addTodo":{"title":"todo \#($0)"}}"#.utf8) }
            return Trial(expectedChecksum: (0..<n).reduce(0) { $0 + "todo \($1 % 8)".utf8.count }) {
                var sum = 0
                for i in 0..<n {
                    if case .addTodo(let title) = try decoder.decode(Action.self, from: texts[i % 8]) { sum += title.utf8.count }
                }
                return sum
            }
        }
    }

    static func dispatchOverhead(_ n: Int) -> Workload {
        Workload(operations: n) {
            let mapping = ActionMapping<Action>.codable()
            let encoder = ValueEncoder()
            let objects = actionObjects
            let states = (0..<8).map(state)
            return Trial(expectedChecksum: (0..<n).reduce(0) { $0 + $1 % 8 + 10 + "todo \($1 % 8)".utf8.count }) {
                var sum = 0
                for i in 0..<n {
                    if case .addTodo(let title) = try mapping.action(from: objects[i % 8]) { sum += title.utf8.count }
                    sum += check(try encoder.encode(states[i % 8]))
                }
                return sum
            }
        }
    }
}
