@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph

/// A name in a command, with where it was typed.
struct Name: Sendable {
    var text: String
    var range: Range<Int>
}

/// `NODE` or `NODE.PORT` in a command.
struct Target: Sendable {
    var node: Name
    var port: Name?

    var range: Range<Int> { node.range.lowerBound..<(port?.range.upperBound ?? node.range.upperBound) }

    var text: String { port.map { "\(node.text).\($0.text)" } ?? node.text }

    var address: PortAddress? { port.map { PortAddress(node: node.text, port: $0.text) } }
}

extension CommandScanner {
    /// A name, or a usage error saying what was expected.
    mutating func requireName(_ what: String, command: String) throws(ShellError) -> Name {
        guard let (text, range) = name() else { throw missing(what, command: command) }
        return Name(text: text, range: range)
    }

    /// A name for a new node: not a command word.
    mutating func requireNewName(command: String) throws(ShellError) -> Name {
        let name = try requireName("the new node's name", command: command)
        if CommandCatalog.info(for: name.text) != nil {
            throw ShellError(.reservedName(name.text), at: name.range)
        }
        return name
    }

    /// `NODE` or `NODE.PORT` (no spaces around the dot).
    mutating func target() -> Target? {
        guard let (node, nodeRange) = name() else { return nil }
        var target = Target(node: Name(text: node, range: nodeRange), port: nil)
        if offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "."), bytes[offset + 1].isNameStartByte {
            offset += 1
            let start = offset
            while offset < bytes.count, bytes[offset].isNameByte { offset += 1 }
            target.port = Name(text: string(start..<offset), range: start..<offset)
        }
        return target
    }

    mutating func requireTarget(_ what: String, command: String) throws(ShellError) -> Target {
        guard let target = target() else { throw missing(what, command: command) }
        return target
    }

    /// `NODE.PORT`, required.
    mutating func requireAddress(_ what: String, command: String) throws(ShellError) -> Target {
        let target = try requireTarget(what, command: command)
        guard target.port != nil else {
            throw CommandParser.usage(command, "expected \(what) as NODE.PORT, found '\(target.text)'", at: target.range)
        }
        return target
    }

    /// Consumes `symbol` if it comes next.
    mutating func symbol(_ symbol: String) -> Bool {
        skipBlanks()
        let spelling = Array(symbol.utf8)
        guard offset + spelling.count <= bytes.count, Array(bytes[offset..<offset + spelling.count]) == spelling else {
            return false
        }
        offset += spelling.count
        return true
    }

    mutating func requireSymbol(_ symbol: String, command: String) throws(ShellError) {
        guard self.symbol(symbol) else { throw missing("'\(symbol)'", command: command) }
    }

    /// Consumes the word `keyword` if it comes next as a whole word.
    mutating func keyword(_ keyword: String) -> Bool {
        let start = offset
        guard let (word, _) = name(), word == keyword else {
            offset = start
            return false
        }
        return true
    }

    /// An expression starting here; the scanner moves to where it ends.
    mutating func expression(command: String) throws(ShellError) -> Expression {
        skipBlanks()
        guard offset < bytes.count else { throw missing("an expression", command: command) }
        do throws(ExpressionError) {
            let (expression, end) = try Expression.parse(text, utf8: bytes, from: offset)
            offset = end
            return expression
        } catch {
            throw ShellError(error, in: text)
        }
    }

    /// Statements from here to the end of the command.
    mutating func statements(command: String, context: StatementContext = .reducer) throws(ShellError) -> StatementBlock {
        skipBlanks()
        guard offset < bytes.count else { throw missing("statements", command: command) }
        do throws(ExpressionError) {
            let block = try StatementBlock.parse(text, utf8: bytes, from: offset, context: context)
            offset = bytes.count
            return block
        } catch {
            throw ShellError(error, in: text)
        }
    }

    /// An integer literal (with an optional minus sign).
    mutating func integer(_ what: String, command: String) throws(ShellError) -> (Int, Range<Int>) {
        skipBlanks()
        let start = offset
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") { offset += 1 }
        guard let value = Int(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
            offset = start
            throw missing(what, command: command)
        }
        return (value, start..<offset)
    }

    /// Whether an integer literal comes next.
    var atInteger: Bool {
        var probe = self
        probe.skipBlanks()
        guard probe.offset < bytes.count else { return false }
        let first = bytes[probe.offset]
        return (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-")
    }

    /// A usage error for a missing part, pointing at what came instead.
    func missing(_ what: String, command: String) -> ShellError {
        var probe = self
        probe.skipBlanks()
        if probe.offset >= bytes.count {
            return CommandParser.usage(command, "missing \(what)", at: bytes.count..<bytes.count)
        }
        var word = probe
        let found = word.word()
        let range = found?.1 ?? probe.offset..<probe.offset + 1
        return CommandParser.usage(command, "expected \(what), found '\(Printable.escaped(found?.0 ?? "", limit: 30))'", at: range)
    }
}
