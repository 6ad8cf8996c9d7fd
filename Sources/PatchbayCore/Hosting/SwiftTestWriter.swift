/// What `export swift-test` writes a Swift Testing test from: a hosted store's recorded run.
package struct SwiftTestRequest {
    /// One recorded step: the action, what it changed, and the recorded state after it.
    package struct Step {
        package var index: Int
        package var action: Value
        package var changes: [ValueChange]
        package var state: Value

        package init(index: Int, action: Value, changes: [ValueChange], state: Value) {
            self.index = index
            self.action = action
            self.changes = changes
            self.state = state
        }
    }

    /// The store's name in the shell.
    package var store: String
    /// The test function's name.
    package var function: String
    /// The Swift expression that gives the app's reducer (`TodoReducers.todoList`).
    package var reducer: String
    /// The module the test imports with `@testable`; the state type's when `nil`.
    package var module: String?
    /// The command that wrote the test, for its header.
    package var command: String
    /// The index of the state the run starts from, and that state.
    package var startIndex: Int
    package var startState: Value
    package var steps: [Step]
    /// How many values of one step are checked at most; a note says how many more there are.
    package var checksPerStep = 200

    package init(store: String, function: String, reducer: String, module: String?, command: String, startIndex: Int,
                 startState: Value, steps: [Step]) {
        self.store = store
        self.function = function
        self.reducer = reducer
        self.module = module
        self.command = command
        self.startIndex = startIndex
        self.startState = startState
        self.steps = steps
    }
}

/// A Swift Testing test `export swift-test` wrote: its source, and how many `#expect` and
/// `#require` it makes.
package struct SwiftTest: Sendable {
    package var text: String
    package var checks: Int
}

/// Writes a recorded run as a Swift Testing test: the start state decoded from its JSON, then
/// for each step the action as a Swift value sent through the reducer, and `#expect` on every
/// value of the state the step changed, as the recording holds it (the recorded state after the
/// step, decoded into the app's type and read through `Mirror`). An array is checked for its
/// count with `#require` before its elements are read, so that a reducer that now makes a
/// shorter array fails the test instead of trapping.
struct SwiftTestWriter {
    private let literal: SwiftLiteral
    private var lines: [String] = []
    private var checks = 0

    init(module: String) {
        literal = SwiftLiteral(module: module)
    }

    /// The test: `steps` are the typed actions and states of `request.steps`.
    static func test(_ request: SwiftTestRequest, stateType: Any.Type, steps: [(action: Any, state: Any)]) throws(SwiftExportError) -> SwiftTest {
        let module = request.module ?? SwiftLiteral.module(of: stateType)
        var writer = SwiftTestWriter(module: module)
        let typeName = String(reflecting: stateType)
        guard typeName.hasPrefix(module + ".") else {
            throw SwiftExportError("the state type \(typeName) is not from \(module): name the app's module with --module")
        }
        let first = request.steps.first?.index ?? request.startIndex
        let range = request.steps.isEmpty ? "no actions" : "actions #\(first) to #\(request.steps.last?.index ?? first)"
        let json = request.startState.jsonText
        var hashes = "#"
        while json.contains("\"" + hashes) { hashes += "#" }
        writer.lines = [
            "// Written by Patchbay from the history of the store \(request.store), \(range), with:",
            "//   \(request.command)",
            "// Each step sends the recorded action through the reducer and checks with #expect what the",
            "// recording says the step changed. Write it again with the same command when the recording changes.",
            "import Foundation",
            "import PatchbayCore",
            "import Testing",
            "@testable import \(module)",
            "",
            "@Test(\(SwiftLiteral.quoted("\(request.store), \(range), as recorded")))",
            "func \(request.function)() throws {",
            "    let reducer = \(request.reducer)",
            "    var state = try JSONDecoder().decode(\(typeName.dropFirst(module.count + 1)).self, from: Data(\(hashes)\"\"\"",
            "        \(json)",
            "        \"\"\"\(hashes).utf8))",
        ]
        for (step, typed) in zip(request.steps, steps) {
            try writer.add(step, action: typed.action, state: typed.state, limit: request.checksPerStep)
        }
        writer.lines.append("}")
        return SwiftTest(text: writer.lines.joined(separator: "\n") + "\n", checks: writer.checks)
    }

    private mutating func add(_ step: SwiftTestRequest.Step, action: Any, state: Any, limit: Int) throws(SwiftExportError) {
        let place = "action #\(step.index)"
        lines.append("")
        lines.append("    // #\(step.index) \(step.action.actionSummary.replacingNewlines)")
        lines.append("    reducer(&state, \(try literal.write(action, at: place)))")
        var checks = Checks(limit: limit)
        for change in step.changes {
            try check(change, in: state, into: &checks, at: place)
        }
        lines += checks.lines
        self.checks += checks.lines.count
        if checks.unchecked > 0 {
            lines.append("    // \(checks.unchecked) more values this step changed are not checked here (over \(limit) a step)")
        }
    }

    /// The checks of one step: each line once, at most `limit` of them.
    private struct Checks {
        let limit: Int
        var lines: [String] = []
        var written: Set<String> = []
        var unchecked = 0

        mutating func add(_ line: String) {
            guard !written.contains(line) else { return }
            guard lines.count < limit else {
                unchecked += 1
                return
            }
            written.insert(line)
            lines.append("    " + line)
        }
    }

    /// An expression being built along a path: `state.todos[2]`, and whether the value it names
    /// is optional, so that the next access chains with `?`.
    private struct Access {
        var expression = "state"
        var isOptional = false

        func member(_ name: String) -> Access {
            Access(expression: expression + (isOptional ? "?." : ".") + name, isOptional: false)
        }

        func element(_ key: String, optional: Bool) -> Access {
            Access(expression: expression + (isOptional ? "?" : "") + "[\(key)]", isOptional: optional)
        }

        func unwrapped() -> Access {
            Access(expression: expression, isOptional: true)
        }
    }

    /// Checks the value `change` names in `state`, as far as its path leads through the
    /// app's types (to an enum, or to a key that is not there, it checks what holds it).
    private func check(_ change: ValueChange, in state: Any, into checks: inout Checks, at place: String) throws(SwiftExportError) {
        var access = Access()
        var current = state
        var path = change.path[...]
        while let component = path.first {
            let mirror = Mirror(reflecting: current)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else { break }
                current = wrapped
                access = access.unwrapped()
                continue
            }
            if mirror.displayStyle == .enum || SwiftLiteral.isScalar(current) { break }
            switch (component, mirror.displayStyle) {
            case (.key(let key), .struct?):
                guard let child = mirror.children.first(where: { $0.label == key }) else {
                    throw SwiftExportError("\(place): the state's \(ValueChange.pathText(Array(change.path.prefix(change.path.count - path.count + 1)))) "
                                           + "has no Swift property '\(key)' (a type with its own CodingKeys); write this check by hand")
                }
                access = access.member(key)
                current = child.value
            case (.key(let key), .dictionary?):
                let entry = access.element(SwiftLiteral.quoted(key), optional: true)
                guard let value = mirror.children.lazy.map({ Mirror(reflecting: $0.value).children.map(\.value) })
                    .first(where: { $0.count == 2 && ($0[0] as? String) == key })?[1]
                else {
                    checks.add("#expect(\(entry.expression) == nil)")
                    return
                }
                access = entry
                current = value
            case (.index(let index), .collection?):
                let elements = mirror.children.map(\.value)
                checks.add("try #require(\(access.member("count").expression) == \(elements.count))")
                guard index < elements.count else { return }
                access = access.element("\(index)", optional: false)
                current = elements[index]
            default:
                throw SwiftExportError("\(place): the state's \(ValueChange.pathText(Array(change.path))) does not lead through the app's types "
                                       + "as its recorded value does; write this check by hand")
            }
            path.removeFirst()
        }
        try expect(access, current, into: &checks, at: place)
    }

    /// Checks `value` at `access`: a value compared whole, or each of its parts.
    private func expect(_ access: Access, _ value: Any, into checks: inout Checks, at place: String) throws(SwiftExportError) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else {
                checks.add("#expect(\(access.expression) == nil)")
                return
            }
            try expect(access.unwrapped(), wrapped, into: &checks, at: place)
        case .struct? where String(reflecting: type(of: value)).hasPrefix(literal.module + "."):
            for child in mirror.children {
                guard let label = child.label, !label.hasPrefix("_") else { return try expectWhole(access, value, into: &checks, at: place) }
                try expect(access.member(label), child.value, into: &checks, at: place)
            }
        case .collection?:
            checks.add("try #require(\(access.member("count").expression) == \(mirror.children.count))")
            for (index, element) in mirror.children.enumerated() {
                try expect(access.element("\(index)", optional: false), element.value, into: &checks, at: place)
            }
        default:
            try expectWhole(access, value, into: &checks, at: place)
        }
    }

    private func expectWhole(_ access: Access, _ value: Any, into checks: inout Checks, at place: String) throws(SwiftExportError) {
        guard value is any Equatable else {
            throw SwiftExportError("\(place): \(access.expression) is a \(String(reflecting: type(of: value))), which is not Equatable; "
                                   + "write this check by hand")
        }
        checks.add("#expect(\(access.expression) == \(try literal.write(value, at: "\(place): \(access.expression)")))")
    }
}

extension String {
    /// The text on one line, for a comment.
    fileprivate var replacingNewlines: String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
