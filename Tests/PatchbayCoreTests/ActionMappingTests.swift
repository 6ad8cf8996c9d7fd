@_spi(Shell) import PatchbayCore
import Testing

// ActionMapping: an app's actions as Patchbay's action objects `{type: ..., fields...}` and
// back, for enums of cases (TCA-style) and one struct per action (ReSwift/VISPER-style).

private enum TodoAction: Codable, Equatable {
    case addTodo(title: String)
    case toggle(id: Int, on: Bool)
    case set(Int)
    case rename(String, to: String)
    case reset
    case nested(Inner)
    case wrap(type: String)
}

private struct Inner: Codable, Equatable {
    var title: String
    var tags: [String]
}

private struct TypedAction: Codable, Equatable {
    var id: Int
    var type: String
}

private struct Untyped: Codable, Equatable {
    var id: Int
}

private enum CaseNamedType: Codable, Equatable {
    case type(x: Int)
    case other(y: Int)
}

/// An enum case whose payload is an enum.
private enum Movement: Codable, Equatable {
    case move(Direction)
}

private enum Direction: Codable, Equatable {
    case to(x: Int, note: String?)
    case home
    case stay(Stamp)
}

/// A struct without fields: its `init(from:)` asks for no container at all.
private struct Stamp: Codable, Equatable {}

/// What `action(from:)` throws, as the user reads it.
private func message<Action>(_ mapping: ActionMapping<Action>, _ object: Value) -> String {
    do {
        _ = try mapping.action(from: object)
        return "no error"
    } catch {
        return error.description
    }
}

@Suite struct CodableActionMappingTests {
    fileprivate let mapping = ActionMapping<TodoAction>.codable()

    @Test func casesBecomeObjectsWithTheirNameAsType() throws {
        #expect(try mapping.object(for: .addTodo(title: "milk")) == ["type": "addTodo", "title": "milk"])
        #expect(try mapping.object(for: .toggle(id: 2, on: true)) == ["type": "toggle", "id": 2, "on": true])
        #expect(try mapping.object(for: .set(3)) == ["type": "set", "_0": 3])
        #expect(try mapping.object(for: .rename("a", to: "b")) == ["type": "rename", "_0": "a", "to": "b"])
        #expect(try mapping.object(for: .reset) == ["type": "reset"])
        #expect(try mapping.object(for: .nested(Inner(title: "t", tags: ["x"]))) == ["type": "nested", "_0": ["title": "t", "tags": ["x"]]])
        // A payload with its own `type` cannot take the case's place: the action is wrapped.
        #expect(try mapping.object(for: .wrap(type: "inner")) == ["type": "TodoAction", "value": ["wrap": ["type": "inner"]]])
        guard case .object(let members) = try mapping.object(for: .toggle(id: 2, on: true)) else { return }
        #expect(Array(members.keys) == ["type", "id", "on"])
    }

    @Test func objectsDecodeBackToTheSameActions() throws {
        let actions: [TodoAction] = [
            .addTodo(title: "milk"), .toggle(id: -1, on: false), .set(Int.max), .rename("", to: "ü"), .reset,
            .nested(Inner(title: "t", tags: [])), .wrap(type: "inner"),
        ]
        for action in actions {
            #expect(try mapping.action(from: mapping.object(for: action)) == action)
        }
        // Key order does not matter when decoding.
        #expect(try mapping.action(from: ["id": 4, "on": true, "type": "toggle"]) == .toggle(id: 4, on: true))
    }

    @Test func typedAndWrappedActionsRoundTrip() throws {
        let typed = ActionMapping<TypedAction>.codable()
        let object = try typed.object(for: TypedAction(id: 4, type: "Load"))
        #expect(object == ["type": "Load", "id": 4])
        guard case .object(let members) = object else { return }
        #expect(members.keys.first == "type")
        #expect(try typed.action(from: object) == TypedAction(id: 4, type: "Load"))
        // A type that happens to be a field's name still means the type field.
        #expect(try typed.action(from: ["type": "id", "id": 1]) == TypedAction(id: 1, type: "id"))

        let untyped = ActionMapping<Untyped>.codable()
        #expect(try untyped.object(for: Untyped(id: 4)) == ["type": "Untyped", "value": ["id": 4]])
        #expect(try untyped.action(from: ["type": "Untyped", "value": ["id": 4]]) == Untyped(id: 4))

        let strings = ActionMapping<String>.codable()
        #expect(try strings.object(for: "go") == ["type": "String", "value": "go"])
        #expect(try strings.action(from: ["type": "String", "value": "go"]) == "go")

        let odd = ActionMapping<CaseNamedType>.codable()
        for action in [CaseNamedType.type(x: 1), .other(y: 2)] {
            #expect(try odd.action(from: odd.object(for: action)) == action)
        }
    }

    @Test func anUnknownTypeIsReportedWithASuggestion() {
        // Before the mapping met a single action, the case names near the type are found.
        #expect(mapping.knownTypes.isEmpty)
        #expect(throws: ActionDecodingError.unknownType("adTodo", suggestion: "addTodo")) { try mapping.action(from: ["type": "adTodo"]) }
        #expect(throws: ActionDecodingError.unknownType("Reset", suggestion: "reset")) { try mapping.action(from: ["type": "Reset"]) }
        #expect(throws: ActionDecodingError.unknownType("toggel", suggestion: "toggle")) { try mapping.action(from: ["type": "toggel", "id": 1]) }
        #expect(throws: ActionDecodingError.unknownType("zzz", suggestion: nil)) { try mapping.action(from: ["type": "zzz"]) }
        #expect(throws: ActionDecodingError.unknownType(String(repeating: "a", count: 5_000), suggestion: nil)) {
            try mapping.action(from: ["type": .string(String(repeating: "a", count: 5_000))])
        }
        let named = ActionMapping<TodoAction>.codable(knownTypes: ["addTodo", "toggle", "reset"])
        #expect(named.knownTypes == ["addTodo", "toggle", "reset"])
        #expect(throws: ActionDecodingError.unknownType("adTodo", suggestion: "addTodo")) { try named.action(from: ["type": "adTodo", "title": "x"]) }
        #expect(ActionDecodingError.unknownType("adTodo", suggestion: "addTodo").description == "no action type 'adTodo'; did you mean 'addTodo'?")
        #expect(ActionDecodingError.unknownType("zzz", suggestion: nil).description == "no action type 'zzz'")
        // Nothing close: the types the mapping knows are listed.
        #expect(message(named, ["type": "clear"]) == "no action type 'clear' (known: addTodo, toggle, reset)")
        let untyped = ActionMapping<Untyped>.codable()
        #expect(throws: ActionDecodingError.unknownType("Untypd", suggestion: nil)) { try untyped.action(from: ["type": "Untypd", "id": 1]) }
        // A struct's field names are no action types: `i` is one edit from the field `id`.
        #expect(throws: ActionDecodingError.unknownType("i", suggestion: nil)) { try untyped.action(from: ["type": "i", "id": 1]) }
    }

    @Test func knownTypesGrowWithEveryTypeSeen() throws {
        let growing = ActionMapping<TodoAction>.codable()
        #expect(growing.knownTypes.isEmpty)
        _ = try growing.object(for: .reset)
        _ = try growing.action(from: ["type": "addTodo", "title": "milk"])
        _ = try growing.object(for: .reset)
        #expect(growing.knownTypes == ["reset", "addTodo"])
        #expect(throws: ActionDecodingError.unknownType("resett", suggestion: "reset")) { try growing.action(from: ["type": "resett"]) }
    }

    @Test func aFieldThatDoesNotDecodeNamesTheFieldAndTheType() {
        func message(_ object: Value) -> String { PatchbayCoreTests.message(mapping, object) }
        #expect(message(["type": "addTodo", "title": 3]) == "addTodo.title: expected a string, found int")
        #expect(message(["type": "nested", "_0": ["title": "t", "tags": [1]]]) == "nested._0.tags.0: expected a string, found int")
        #expect(message(["type": "set", "_0": 1.5]) == "set._0: expected an integer, found decimal")
        #expect(throws: ActionDecodingError.invalid(type: "addTodo", ValueCodingError(path: ["title"], message: "expected a string, found int"))) {
            try mapping.action(from: ["type": "addTodo", "title": 3])
        }
        let typed = ActionMapping<TypedAction>.codable()
        #expect(throws: ActionDecodingError.invalid(type: "Load", ValueCodingError(path: ["id"], message: "expected an integer, found string"))) {
            try typed.action(from: ["type": "Load", "id": "x"])
        }
        #expect(throws: ActionDecodingError.invalid(type: "String", ValueCodingError(path: ["value"], message: "expected a string, found int"))) {
            try ActionMapping<String>.codable().action(from: ["type": "String", "value": 1])
        }
    }

    @Test func aMissingFieldSaysWhatWasExpected() {
        #expect(message(mapping, ["type": "addTodo"]) == "addTodo.title: missing (expected a string)")
        #expect(message(mapping, ["type": "toggle", "id": 1]) == "toggle.on: missing (expected a bool)")
        #expect(message(mapping, ["type": "set"]) == "set._0: missing (expected an integer)")
        #expect(message(mapping, ["type": "nested"]) == "nested._0: missing (expected Inner)")
        #expect(message(mapping, ["type": "nested", "_0": ["title": "t"]]) == "nested._0.tags: missing (expected an array)")
        // The object's own `type` is not a field of the case.
        #expect(message(mapping, ["type": "wrap"]) == "wrap.type: missing (expected a string)")
    }

    @Test func aFieldTheActionNeverAskedForIsAnErrorSuggestingTheClosestField() throws {
        #expect(message(mapping, ["type": "addTodo", "title": "milk", "titel": "x"]) == "addTodo.titel: unknown field; did you mean 'title'?")
        #expect(throws: ActionDecodingError.invalid(type: "addTodo", ValueCodingError(path: ["titel"], message: "unknown field; did you mean 'title'?"))) {
            try mapping.action(from: ["type": "addTodo", "title": "milk", "titel": "x"])
        }
        #expect(message(mapping, ["type": "toggle", "id": 1, "on": true, "zzzzzz": 1]) == "toggle.zzzzzz: unknown field (fields: id, on)")
        #expect(message(mapping, ["type": "reset", "hard": true]) == "reset.hard: unknown field (it takes none)")
        // In a struct payload, and in an enum payload.
        #expect(message(mapping, ["type": "nested", "_0": ["title": "t", "tags": [], "tagz": ["a"]]])
            == "nested._0.tagz: unknown field; did you mean 'tags'?")
        let movements = ActionMapping<Movement>.codable()
        #expect(try movements.action(from: ["type": "move", "_0": ["to": ["x": 1]]]) == .move(.to(x: 1, note: nil)))
        #expect(message(movements, ["type": "move", "_0": ["to": ["x": 1, "nite": "a"]]]) == "move._0.to.nite: unknown field; did you mean 'note'?")
        #expect(message(movements, ["type": "move", "_0": ["home": ["x": 1]]]) == "move._0.home.x: unknown field (it takes none)")
        #expect(try movements.action(from: ["type": "move", "_0": ["stay": ["_0": [:]]]]) == .move(.stay(Stamp())))
        #expect(message(movements, ["type": "move", "_0": ["stay": ["_0": ["at": 1]]]]) == "move._0.stay._0.at: unknown field (it takes none)")
        // The typed and the wrapped forms.
        let typed = ActionMapping<TypedAction>.codable()
        #expect(message(typed, ["type": "Load", "id": 1, "extra": 2]) == "Load.extra: unknown field (fields: id, type)")
        let untyped = ActionMapping<Untyped>.codable()
        #expect(message(untyped, ["type": "Untyped", "value": ["id": 4, "idd": 5]]) == "Untyped.value.idd: unknown field; did you mean 'id'?")
        #expect(message(untyped, ["type": "Untyped", "value": ["id": 4], "valeu": 5]) == "Untyped.valeu: unknown field; did you mean 'value'?")
        // Optional fields left out are no problem, nor is a field given as null.
        #expect(try movements.action(from: ["type": "move", "_0": ["to": ["x": 1, "note": nil]]]) == .move(.to(x: 1, note: nil)))
    }

    @Test func aValueThatIsNotAnActionSaysWhatItIs() {
        #expect(throws: ActionDecodingError.notAnAction(found: "int")) { try mapping.action(from: 3) }
        #expect(throws: ActionDecodingError.notAnAction(found: #"an object without "type""#)) { try mapping.action(from: ["title": "x"]) }
        #expect(throws: ActionDecodingError.notAnAction(found: #"an object whose "type" is int"#)) { try mapping.action(from: ["type": 1]) }
        #expect(ActionDecodingError.notAnAction(found: "array").description == #"not an action: expected an object with a string "type", found array"#)
    }

    @Test func anActionThatCannotBeEncodedIsAnError() {
        let doubles = ActionMapping<[Double]>.codable()
        #expect(throws: ValueCodingError(path: ["1"], message: "nan is not a finite number")) { try doubles.object(for: [1, .nan]) }
    }
}

// MARK: One struct per action

private protocol HostedAction {}
private struct AddTodo: Codable, HostedAction, Equatable { var title: String }
private struct ToggleTodo: Codable, HostedAction, Equatable { var id: Int }
private struct Reset: Codable, HostedAction, Equatable {}
private struct NotAnAction: Codable, Equatable { var x: Int }

private enum Wrapped: Equatable {
    case add(AddTodo)
    case toggle(ToggleTodo)
}

@Suite struct TypesActionMappingTests {
    fileprivate let mapping = ActionMapping<any HostedAction>.types([ActionType(AddTodo.self), ActionType(ToggleTodo.self, name: "toggle"), ActionType(Reset.self)])

    @Test func theActionsDynamicTypePicksItsRegistration() throws {
        #expect(mapping.knownTypes == ["AddTodo", "toggle", "Reset"])
        #expect(try mapping.object(for: AddTodo(title: "milk")) == ["type": "AddTodo", "title": "milk"])
        #expect(try mapping.object(for: ToggleTodo(id: 3)) == ["type": "toggle", "id": 3])
        #expect(try mapping.object(for: Reset()) == ["type": "Reset"])
        #expect(try mapping.action(from: ["type": "AddTodo", "title": "milk"]) as? AddTodo == AddTodo(title: "milk"))
        #expect(try mapping.action(from: ["type": "toggle", "id": 3]) as? ToggleTodo == ToggleTodo(id: 3))
        #expect(try mapping.action(from: ["type": "Reset"]) is Reset)
    }

    @Test func errorsNameTheType() {
        #expect(throws: ActionDecodingError.unknownType("AddTodos", suggestion: "AddTodo")) { try mapping.action(from: ["type": "AddTodos"]) }
        #expect(message(mapping, ["type": "Clear"]) == "no action type 'Clear' (known: AddTodo, toggle, Reset)")
        #expect(throws: ActionDecodingError.invalid(type: "AddTodo", ValueCodingError(path: ["title"], message: "missing (expected a string)"))) {
            try mapping.action(from: ["type": "AddTodo"])
        }
        #expect(message(mapping, ["type": "AddTodo"]) == "AddTodo.title: missing (expected a string)")
        struct Unregistered: HostedAction {}
        #expect(throws: ValueCodingError(path: [], message: "no action type is registered for Unregistered")) { try mapping.object(for: Unregistered()) }
    }

    @Test func aFieldTheStructNeverAskedForIsAnError() throws {
        #expect(message(mapping, ["type": "AddTodo", "title": "milk", "titel": "x"]) == "AddTodo.titel: unknown field; did you mean 'title'?")
        #expect(message(mapping, ["type": "Reset", "all": true]) == "Reset.all: unknown field (it takes none)")
        #expect(message(mapping, ["type": "toggle", "id": 1, "extra": [1]]) == "toggle.extra: unknown field (fields: id)")
        // The object's `type` belongs to the mapping, not to the struct.
        #expect(try mapping.action(from: ["type": "toggle", "id": 1]) as? ToggleTodo == ToggleTodo(id: 1))
    }

    @Test func aTypeThatIsNotAnActionFailsAtDecodingNamingIt() {
        let wrong = ActionMapping<any HostedAction>.types([ActionType(NotAnAction.self)])
        #expect(throws: ActionDecodingError.invalid(type: "NotAnAction", ValueCodingError(path: [], message: "NotAnAction is not a HostedAction"))) {
            try wrong.action(from: ["type": "NotAnAction", "x": 1])
        }
    }

    @Test func aWrapClosureMakesTheAction() throws {
        let wrapped = ActionMapping<Wrapped>.types([ActionType(AddTodo.self, as: Wrapped.add), ActionType(ToggleTodo.self, as: Wrapped.toggle)])
        #expect(try wrapped.action(from: ["type": "ToggleTodo", "id": 1]) == .toggle(ToggleTodo(id: 1)))
    }
}

@Suite struct ReflectingActionMappingTests {
    private enum Plain { case tap(x: Int, y: Int), close, named(String) }
    private struct Move { var dx: Int }

    @Test func actionsAreReflectedAndCannotBeDecoded() throws {
        let mapping = ActionMapping<Plain>.reflecting()
        #expect(try mapping.object(for: .tap(x: 1, y: 2)) == ["type": "tap", "x": 1, "y": 2])
        #expect(try mapping.object(for: .close) == ["type": "close"])
        #expect(try mapping.object(for: .named("a")) == ["type": "named", "_0": "a"])
        #expect(mapping.knownTypes == ["tap", "close", "named"])
        #expect(throws: ActionDecodingError.notDecodable(type: "tap")) { try mapping.action(from: ["type": "tap", "x": 1, "y": 2]) }
        #expect(try ActionMapping<Move>.reflecting().object(for: Move(dx: 2)) == ["type": "Move", "dx": 2])
    }
}
