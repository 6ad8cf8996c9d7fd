import Foundation
import PatchbayCore

extension Recorder {
    /// `value` as JSON, read back as a `Value`.
    func encode(_ value: some Encodable, what: @autoclosure () -> String) throws(RecorderError) -> Value {
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw .encoding(what: what(), message: Self.message(error))
        }
        do {
            return try data.withUnsafeBytes { raw in
                Result { () throws(JSONError) in try JSONReader.parse(raw.bindMemory(to: UInt8.self)) }
            }.get()
        } catch {
            throw .encoding(what: what(), message: error.description)
        }
    }

    /// An encoding error in one line.
    private static func message(_ error: any Error) -> String {
        switch error {
        case EncodingError.invalidValue(let value, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(context.debugDescription) (\(value) at \(path.isEmpty ? "the top" : path))"
        default:
            return String(describing: error)
        }
    }

    /// The action object a line records for `encoded`, an action as JSON: always an object
    /// with a string `type` first (see `Recorder`).
    static func actionObject(_ encoded: Value, typeName: String) -> Value {
        if case .object(let members) = encoded {
            if case .string(let type)? = members["type"] {
                var object: Value.Members = ["type": .string(type)]
                for (key, value) in members where key != "type" { object[key] = value }
                return .object(object)
            }
            if members.count == 1, case .object(let payload) = members.values[0], payload["type"] == nil {
                var object: Value.Members = ["type": .string(members.keys[0])]
                for (key, value) in payload { object[key] = value }
                return .object(object)
            }
        }
        return ["type": .string(typeName), "value": encoded]
    }

    /// The number of leaves of `value` (scalars and empty arrays and objects): the size a
    /// checkpoint interval is measured against.
    static func leafCount(_ value: Value) -> Int {
        switch value {
        case .array(let elements): elements.isEmpty ? 1 : elements.reduce(0) { $0 + leafCount($1) }
        case .object(let members): members.isEmpty ? 1 : members.values.reduce(0) { $0 + leafCount($1) }
        default: 1
        }
    }
}
