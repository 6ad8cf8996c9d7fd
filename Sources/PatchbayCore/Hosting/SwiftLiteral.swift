/// Writes typed values as Swift source (`export swift-test`): a `String`, a number, a `Bool`,
/// an optional, an array, a set, a dictionary, and the app's own structs and enums, read through
/// `Mirror`. A struct is written as a call of its memberwise initializer (`Todo(id: 1, title:
/// "milk", done: false)`), an enum case with its type and labels (`TodoAction.add(title:
/// "milk")`). What cannot be written so (a class, a type from another module than
/// the app's, such as `Date`, a property the initializer cannot take) is an error naming it.
package struct SwiftLiteral {
    /// The module of the app's types (`TodoCore`): types from it are written without it.
    package let module: String

    package init(module: String) {
        self.module = module
    }

    /// The module that declares `type`, from its fully qualified name.
    package static func module(of type: Any.Type) -> String {
        let name = String(reflecting: type)
        return name.firstIndex(of: ".").map { String(name[..<$0]) } ?? name
    }

    /// `value` as Swift source; `place` names it in errors (`action #3`).
    package func write(_ value: Any, at place: String) throws(SwiftExportError) -> String {
        if let scalar = try Self.scalar(value, at: place) { return scalar }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return "nil" }
            return try write(wrapped, at: place)
        case .collection, .set:
            return "[" + (try mirror.children.map { (child) throws(SwiftExportError) in try write(child.value, at: place) })
                .joined(separator: ", ") + "]"
        case .dictionary:
            guard !mirror.children.isEmpty else { return "[:]" }
            let pairs = try mirror.children.map { (child) throws(SwiftExportError) -> String in
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                guard pair.count == 2 else { throw SwiftExportError("\(place): a dictionary entry does not read as a key and a value") }
                return try write(pair[0], at: place) + ": " + write(pair[1], at: place)
            }
            return "[" + pairs.joined(separator: ", ") + "]"
        case .struct:
            let name = try typeName(of: value, at: place)
            let arguments = try mirror.children.map { (child) throws(SwiftExportError) -> String in
                guard let label = child.label, !label.hasPrefix("_") else {
                    throw SwiftExportError("\(place): \(name) has a property its initializer does not take (\(child.label ?? "unnamed")); "
                                           + "write this value by hand")
                }
                return "\(label): " + (try write(child.value, at: "\(place).\(label)"))
            }
            return "\(name)(\(arguments.joined(separator: ", ")))"
        case .enum:
            return try enumCase(value, mirror, at: place)
        default:
            throw SwiftExportError("\(place): \(String(reflecting: type(of: value))) cannot be written as a Swift literal (a class, "
                                   + "a tuple or a function); write this value by hand")
        }
    }

    /// Whether `value` is a string, a `Bool` or a number: written as a literal of its own.
    package static func isScalar(_ value: Any) -> Bool {
        value is String || value is Bool || value is any BinaryInteger || value is any BinaryFloatingPoint
    }

    private static func scalar(_ value: Any, at place: String) throws(SwiftExportError) -> String? {
        switch value {
        case let string as String: return quoted(string)
        case let bool as Bool: return "\(bool)"
        case let int as Int: return "\(int)"
        case let int as Int8: return "\(int)"
        case let int as Int16: return "\(int)"
        case let int as Int32: return "\(int)"
        case let int as Int64: return "\(int)"
        case let int as UInt: return "\(int)"
        case let int as UInt8: return "\(int)"
        case let int as UInt16: return "\(int)"
        case let int as UInt32: return "\(int)"
        case let int as UInt64: return "\(int)"
        case let number as Double: return try floating(number, number.isFinite, at: place)
        case let number as Float: return try floating(Double(number), number.isFinite, at: place)
        default: return nil
        }
    }

    private static func floating(_ number: Double, _ isFinite: Bool, at place: String) throws(SwiftExportError) -> String {
        guard isFinite else { throw SwiftExportError("\(place): \(number) has no Swift literal") }
        return "\(number)"
    }

    /// `text` as a Swift string literal, with the characters a literal cannot hold escaped.
    package static func quoted(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: literal += "\\u{\(String(scalar.value, radix: 16))}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// The name `value`'s type is written with: the app's types without their module.
    private func typeName(of value: Any, at place: String) throws(SwiftExportError) -> String {
        let name = String(reflecting: type(of: value))
        guard name.hasPrefix(module + "."), !name.contains("("), !name.contains("<") else {
            throw SwiftExportError("\(place): \(name) cannot be written as a Swift literal (only the app's own structs and enums, "
                                   + "from \(module), and the standard library's values can); write this value by hand")
        }
        return String(name.dropFirst(module.count + 1))
    }

    private func enumCase(_ value: Any, _ mirror: Mirror, at place: String) throws(SwiftExportError) -> String {
        let name = try typeName(of: value, at: place)
        guard let payload = mirror.children.first else {
            guard !(value is any CustomStringConvertible), !(value is any CustomDebugStringConvertible) else {
                throw SwiftExportError("\(place): the case of \(name) cannot be told (it describes itself); write this value by hand")
            }
            return "\(name).\(String(describing: value))"
        }
        let caseName = payload.label ?? ""
        // A payload of several values, or of one labeled value, reflects as a tuple, whose
        // children carry the labels (`.0` for none); a single unlabeled value as itself.
        let payloadMirror = Mirror(reflecting: payload.value)
        let fields: [(label: String?, value: Any)] = payloadMirror.displayStyle == .tuple
            ? payloadMirror.children.map { ($0.label.flatMap { $0.hasPrefix(".") ? nil : $0 }, $0.value) }
            : [(nil, payload.value)]
        var arguments: [String] = []
        for (label, payload) in fields {
            let written = try write(payload, at: "\(place).\(caseName)")
            arguments.append(label.map { "\($0): \(written)" } ?? written)
        }
        return "\(name).\(caseName)(\(arguments.joined(separator: ", ")))"
    }
}

/// Why a recorded run cannot be written as a Swift test: the value and what is wrong with it.
package struct SwiftExportError: Error, Sendable, Equatable {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}
