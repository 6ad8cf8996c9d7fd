@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
@_spi(Shell) import PatchbayRecorder
@_spi(Shell) import PatchbayHistory
import PatchbayTestSupport


extension ValueGenerator {
    mutating func pointer() -> JSONPointer {
        JSONPointer((0..<int(0..<4)).map { _ in int(0..<3) == 0 ? .index(int(0..<20)) : .key(Self.keys[int(0..<Self.keys.count)]) })
    }

    mutating func operations() -> [JSONPatch.Operation] {
        (0..<int(0..<4)).map { _ in
            let op = [ValueChange.Operation.add, .remove, .replace][int(0..<3)]
            return JSONPatch.Operation(op, path: pointer(), value: value())
        }
    }

    /// A string of random code points (escapes, controls, astral), or one of `strings`.
    mutating func text() -> String {
        guard int(0..<2) == 0 else { return Self.strings[int(0..<Self.strings.count)] }
        let scalars = (0..<int(0..<12)).compactMap { _ -> Unicode.Scalar? in
            switch int(0..<4) {
            case 0: Unicode.Scalar(UInt32(int(0..<0x80)))
            case 1: Unicode.Scalar(UInt32(int(0x80..<0xD800)))
            case 2: Unicode.Scalar(UInt32(int(0x10000..<0x110000)))
            default: Unicode.Scalar(UInt32(int(0x20..<0x7F)))
            }
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// An event of any kind, with random content.
    mutating func event() -> SessionEvent {
        switch int(0..<16) {
        case 12:
            let purposes: [PendingTimer.Purpose] = [
                .reducer("r\(int(1..<9))", action: ["type": .string(name())], from: int(1..<100)), .delay(value()),
                .period(count: int(0..<1000)),
            ]
            return .timer(PendingTimer(due: int(0..<1_000_000), node: name(), purpose: purposes[int(0..<3)]))
        case 13: return .checkout(store: name(), branch: name())
        case 14: return .sweep(store: name())
        case 15:
            return .recompute(store: name(), recomputed: (0..<int(0..<3)).map { _ in RecomputedStep(index: int(1..<100), changes: operations()) })
        case 10: return .setup(text())
        case 11:
            let steps = (0..<int(0..<4)).map { _ in
                RecomputedStep(index: int(1..<100), changes: operations(), hash: int(0..<3) == 0 ? nil : StateDigest(value()),
                            failure: int(0..<3) == 0 ? text() : nil)
            }
            return .skip(store: name(), index: int(1..<100), skipped: int(0..<2) == 0, recomputed: steps)
        case 0: return .command(text())
        case 1: return .store(name: name(), state: value())
        case 2:
            let operations = (0..<int(0..<4)).map { _ in
                let op = [ValueChange.Operation.add, .remove, .replace][int(0..<3)]
                return JSONPatch.Operation(op, path: pointer(), value: value())
            }
            actionCount += 1
            return .action(StoreStep<JSONPatch.Operation>(store: name() + " #\(actionCount)", index: int(1..<1_000_000), action: ["type": .string(name()), "by": value()], changes: operations, failure: int(0..<4) == 0 ? "failed: \(int(0..<9))" : nil, cause: int(0..<4) == 0 ? int(1..<99) : nil, delayedReducer: int(0..<4) == 0 ? "r\(int(1..<9))" : nil, site: int(0..<4) == 0 ? .source(CallSite(file: "App/" + text() + ".swift", line: int(1..<100_000))) : nil), hash: int(0..<4) == 0 ? nil : StateDigest(value()))
        case 3:
            // A store of its own, at a step its name gives, so that the checkpoints of a sequence
            // stand where their store is (another step's is damage; see `CheckpointPlaces`).
            let store = "checkpointed " + name()
            return .checkpoint(store: store, index: store.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) % 5000 }, state: value())
        case 4: return .publish(port: name() + ".value", value: value())
        case 5:
            return .route(SessionRoute(
                url: "/message/" + name(), pattern: "/message/:username", params: ["username": .string(name())],
                view: int(0..<2) == 0 ? nil : "Message", option: int(0..<2) == 0 ? nil : "modal"))
        case 6: return .error(command: Self.strings[int(0..<Self.strings.count)], message: name())
        case 7: return .jump(store: name(), index: int(0..<100))
        case 8: return .skip(store: name(), index: int(1..<100), skipped: int(0..<2) == 0, recomputed: [])
        default: return .reset(store: name(), state: value())
        }
    }
}

/// A session file's bytes: the header, then `lines`, each ended by a line break.
func sessionBytes(_ lines: [String], header: String = SessionHeader(created: "2026-11-21T10:00:00Z").line) -> [UInt8] {
    Array(([header] + lines).map { $0 + "\n" }.joined().utf8)
}

extension ValueGenerator {
    /// A path to some value inside `value` (the root included).
    mutating func path(in value: Value) -> [ValueChange.PathComponent] {
        var path: [ValueChange.PathComponent] = []
        var current = value
        while int(0..<4) != 0 {
            switch current {
            case .array(let elements) where !elements.isEmpty:
                let index = int(0..<elements.count)
                path.append(.index(index))
                current = elements[index]
            case .object(let members) where !members.isEmpty:
                let index = int(0..<members.count)
                path.append(.key(members.keys[index].string))
                current = members.values[index]
            default:
                return path
            }
        }
        return path
    }

    /// A random change that applies to `value`: a replacement anywhere, a key added or
    /// removed, an element inserted or removed anywhere in an array (the middle included).
    mutating func change(of value: Value) -> ValueChange? {
        let path = path(in: value)
        let target = value.value(at: path)!
        switch (int(0..<4), target) {
        case (0, .array(let elements)):
            let index = int(0...elements.count)
            return ValueChange(path: path + [.index(index)], operation: .add, old: nil, new: self.value(depth: 2))
        case (1, .array(let elements)) where !elements.isEmpty:
            let index = int(0..<elements.count)
            return ValueChange(path: path + [.index(index)], operation: .remove, old: elements[index], new: nil)
        case (0, .object(let members)):
            let key = Self.keys[int(0..<Self.keys.count)]
            if let old = members[key] { return ValueChange(path: path + [.key(key)], operation: .replace, old: old, new: self.value(depth: 2)) }
            return ValueChange(path: path + [.key(key)], operation: .add, old: nil, new: self.value(depth: 2))
        case (1, .object(let members)) where !members.isEmpty:
            let index = int(0..<members.count)
            return ValueChange(path: path + [.key(members.keys[index].string)], operation: .remove, old: members.values[index], new: nil)
        default:
            guard !path.isEmpty || int(0..<8) == 0 else { return nil }
            return ValueChange(path: path, operation: .replace, old: target, new: self.value(depth: 2))
        }
    }
}
