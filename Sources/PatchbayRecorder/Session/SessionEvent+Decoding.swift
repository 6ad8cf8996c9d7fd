import PatchbayCore

extension SessionEvent {
    /// The event of a line's fields (other than `seq`), moved out of them. Returns `nil` when its
    /// kind is unknown (a newer writer's), which readers skip.
    static func decode(_ fields: inout LineFields) throws(SessionError.Reason) -> SessionEvent? {
        switch try fields.string(.kind) {
        case "command":
            return .command(try fields.string(.text))
        case "setup":
            return .setup(try fields.string(.text))
        case "store":
            return .store(name: try fields.string(.store), state: try fields.value(.state))
        case "action":
            return .action(try .decode(&fields))
        case "checkpoint":
            return .checkpoint(store: try fields.string(.store), index: try fields.int(.index), state: try fields.value(.state))
        case "publish":
            return .publish(port: try fields.string(.port), value: try fields.value(.value))
        case "route":
            let route = SessionRoute(
                url: try fields.string(.url), pattern: try fields.string(.pattern), params: try fields.object(.params),
                view: try fields.optionalString(.view), option: try fields.optionalString(.option))
            return .route(route)
        case "error":
            return .error(command: try fields.string(.text), message: try fields.string(.message))
        case "jump":
            return .jump(store: try fields.string(.store), index: try fields.int(.index))
        case "skip":
            return .skip(store: try fields.string(.store), index: try fields.int(.index), skipped: try fields.bool(.skipped))
        case "reset":
            return .reset(store: try fields.string(.store), state: try fields.value(.state))
        case "checkout":
            return .checkout(store: try fields.string(.store), branch: try fields.string(.branch))
        case "sweep":
            return .sweep(store: try fields.string(.store))
        default:
            return nil
        }
    }
}

extension SessionHeader {
    /// Reads the header line.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(SessionError.Reason) -> SessionHeader {
        let value: Value
        do {
            value = try JSONReader.parse(line)
        } catch {
            throw .notASession("the first line is not JSON (\(error))")
        }
        guard case .object(let members) = value, members["patchbay"] == .string("session") else {
            throw .notASession(#"the first line has no "patchbay":"session""#)
        }
        guard case .int(let version)? = members["version"] else { throw .notASession(#"the header has no integer "version""#) }
        guard version >= 1 else { throw .notASession("the header's version \(version) is not a session version") }
        guard version <= SessionHeader.supportedVersion else { throw .newerVersion(version) }
        var created: String?
        if case .string(let text)? = members["created"] { created = text }
        return SessionHeader(version: version, created: created)
    }
}

extension SessionAction {
    /// Reads an action line's fields, moving them out.
    static func decode(_ fields: inout LineFields) throws(SessionError.Reason) -> SessionAction {
        SessionAction(
            store: try fields.string(.store), index: try fields.int(.index), action: try fields.value(.action),
            patch: try fields.operations(), hash: try fields.digest(), failure: try fields.optionalString(.failed),
            cause: try fields.optionalInt(.cause), delayedReducer: try fields.optionalString(.reducer))
    }
}

extension JSONPatch.Operation {
    /// Reads one operation of an action line's patch; `field` names it in errors.
    init(_ value: Value, field: String) throws(SessionError.Reason) {
        guard case .object(let members) = value else {
            throw .wrongType(field, expected: "an object {\"op\":...,\"path\":...}", found: value.typePhrase)
        }
        guard case .string(let name)? = members["op"] else {
            throw LineFields.problem(members["op"], field: field + ".op", expected: "a string")
        }
        guard let op = ValueChange.Operation(rawValue: name) else {
            throw .invalidField(field + ".op", "is \(Value.string(name).jsonText); this patchbay reads add, remove and replace")
        }
        guard case .string(let pointer)? = members["path"] else {
            throw LineFields.problem(members["path"], field: field + ".path", expected: "a string")
        }
        guard let path = JSONPointer(pointer) else {
            throw .invalidField(field + ".path", "is \(Value.string(pointer).jsonText), which is not a JSON Pointer (\"\" or /key/0...)")
        }
        let operationValue = members["value"]
        guard op == .remove || operationValue != nil else { throw .missingField(field + ".value", expected: "any JSON value") }
        self.init(op, path: path, value: operationValue)
    }
}

