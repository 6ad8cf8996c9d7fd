import PatchbayCore

/// Why a JSON Patch operation could not be applied: which operation, where, and why.
@_spi(Shell)
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// The object has no member with this key.
        case noKey(String)
        /// The index is past the end of the array (`count` elements).
        case indexOutOfRange(Int, count: Int)
        /// The token is neither a number nor `-`, and the container is an array.
        case notAnIndex(String)
        /// The path goes into a value that is neither an object nor an array.
        case notAContainer(typeName: String)
        /// `add` or `replace` without a value.
        case missingValue
        /// `remove` of the whole value.
        case removeRoot
    }

    /// The operation's position in the patch: 0 for the first.
    public var index: Int
    /// The operation that failed.
    public var operation: JSONPatch.Operation
    /// The container where resolution failed (the whole value for `""`).
    public var at: JSONPointer
    /// Why it failed.
    public var reason: Reason

    /// The failure of `operation`, the patch's operation `index`, in the container `at`.
    public init(index: Int, operation: JSONPatch.Operation, at: JSONPointer, reason: Reason) {
        self.index = index
        self.operation = operation
        self.at = at
        self.reason = reason
    }

    /// One line: `patch operation 2 (remove /items/5): index 5 is out of range (/items has 3 elements)`.
    public var description: String {
        let place = at.components.isEmpty ? "the value" : at.description
        let problem: String = switch reason {
        case .noKey(let key): "\(place) has no key \(Value.string(key).jsonText)"
        case .indexOutOfRange(let index, let count): "index \(index) is out of range (\(place) has \(count) elements)"
        case .notAnIndex(let token): "\(Value.string(token).jsonText) is not an index into the array \(place)"
        case .notAContainer(let typeName): "cannot go into \(place), which is \(typeName)"
        case .missingValue: "\(operation.op.rawValue) needs a value"
        case .removeRoot: "cannot remove the whole value"
        }
        return "patch operation \(index + 1) (\(operation.op.rawValue) \(operation.path.description.isEmpty ? "\"\"" : operation.path.description)): \(problem)"
    }
}
