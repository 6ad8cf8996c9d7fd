import PatchbayCore

extension Value {
    /// The value's type as a message names it: `a string`, `an integer`, `null`.
    package var typePhrase: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .decimal: "a decimal"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
