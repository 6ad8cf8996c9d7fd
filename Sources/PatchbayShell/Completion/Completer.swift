/// Computes Tab completions: command words first, then what each command takes.
///
/// A plain function of the line and cursor (and of what the session defines), so it is tested
/// without a terminal.
struct Completer {
    var fileNames: FileNameLister

    func complete(_ line: String, cursor: Int) -> Completion {
        let bytes = Array(line.utf8.prefix(cursor))
        var wordStart = bytes.count
        while wordStart > 0, !Self.isSeparator(bytes[wordStart - 1]) { wordStart -= 1 }
        let word = String(decoding: bytes[wordStart...], as: UTF8.self)
        let earlier = String(decoding: bytes[..<wordStart], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let range = wordStart..<bytes.count
        let pool: [String]
        switch earlier.first {
        case nil:
            pool = CommandCatalog.words.filter { $0 != "=" }
        case "help" where earlier.count == 1:
            pool = CommandCatalog.words.filter { $0 != "=" } + Help.topics
        case "load" where earlier.count == 1:
            pool = fileNames.names(matching: word)
        default:
            pool = []
        }
        let candidates = Set(pool.filter { $0.hasPrefix(word) }).sorted()
        return Completion(range: range, candidates: candidates)
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
