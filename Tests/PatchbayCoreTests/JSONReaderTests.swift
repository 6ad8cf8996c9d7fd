@_spi(Shell) import PatchbayCore
import PatchbayTestSupport
import Testing

/// The JSON underneath session files: `JSONReader` and the byte writer.
@Suite struct SessionJSONTests {
    @Test func theReaderKeepsIntegersApartFromDecimals() throws {
        let value = try JSONReader.parse(#" {"a":1,"b":[true,false,null],"c":"x\ny\u00e9","d":1.5,"e":-0,"f":1e2,"g":1E+2,"h":-2.5e-1} "#)
        let expected: Value = ["a": 1, "b": [true, false, nil], "c": "x\nyé", "d": 1.5, "e": 0, "f": 100.0, "g": 100.0, "h": -0.25]
        #expect(value == expected)
        #expect(value["e"]?.typeName == "int")
        #expect(value["f"]?.typeName == "decimal")
    }

    @Test func theReaderReadsTheExtremes() throws {
        #expect(try JSONReader.parse("-9223372036854775808") == .int(Int.min))
        #expect(try JSONReader.parse("9223372036854775807") == .int(Int.max))
        #expect(try JSONReader.parse(#""\ud83d\ude00 \/ \b\f\r\t""#) == "😀 / \u{08}\u{0C}\r\t")
        #expect(try JSONReader.parse(" [ 1 , 2 ]\n") == [1, 2])
        #expect(try JSONReader.parse("{}") == [:])
        #expect(try JSONReader.parse("[]") == [])
        #expect(try JSONReader.parse(#""""#) == "")
        #expect(try JSONReader.parse("0.5") == 0.5)
    }

    @Test func aRepeatedKeyKeepsItsPlaceAndTheLastValue() throws {
        let value = try JSONReader.parse(#"{"a":1,"b":2,"a":3}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(Array(members.keys) == ["a", "b"])
        #expect(members["a"] == 3)
    }

    @Test(arguments: [
        ("", "unexpected end of the text", 0),
        ("[1,]", "unexpected character", 3),
        (#"{"a" 1}"#, "expected ':'", 5),
        ("{1:2}", "expected a key", 1),
        (#"{"a":1 "b":2}"#, "expected ',' or '}'", 7),
        ("[1 2]", "expected ',' or ']'", 3),
        ("[1,2", "unexpected end of the text", 4),
        ("tru", "unexpected word", 0),
        ("nul", "unexpected word", 0),
        ("falsy", "unexpected word", 0),
        ("01", "unexpected text after the value", 1),
        ("-01", "unexpected text after the value", 2),
        ("-", "expected a digit", 1),
        ("-a", "expected a digit", 1),
        ("1.", "expected a digit after '.'", 2),
        ("1.e5", "expected a digit after '.'", 2),
        ("1e", "expected a digit in the exponent", 2),
        ("1e+", "expected a digit in the exponent", 3),
        ("9223372036854775808", "integer 9223372036854775808 does not fit in 64 bits", 0),
        ("[-9223372036854775809]", "integer -9223372036854775809 does not fit in 64 bits", 1),
        ("1e999", "number 1e999 is out of range", 0),
        (#""abc"#, "unterminated string", 4),
        (#""a\"#, "unterminated string", 3),
        (#""a\x""#, "an invalid escape", 4),
        (#""\u12""#, #"an invalid \u escape"#, 3),
        (#""\u12g4""#, #"an invalid \u escape"#, 5),
        (#""\ud800""#, #"a lone surrogate in a \u escape"#, 7),
        (#""\ud800\u0041""#, #"a lone surrogate in a \u escape"#, 13),
        (#""\udc00""#, #"an invalid \u escape"#, 7),
        ("\"a\tb\"", "a control character in a string", 2),
        ("\"a\\n\u{01}\"", "a control character in a string", 4),
        ("@", "unexpected character", 0),
        ("{\"a\":1}x", "unexpected text after the value", 7),
    ])
    func theReaderNamesWhatIsWrongAndWhere(text: String, message: String, offset: Int) {
        #expect(failure(Array(text.utf8)) == Failure(message: message, offset: offset))
    }

    @Test func theReaderRefusesInvalidUTF8() {
        #expect(failure([0x22, 0xFF, 0x22]) == Failure(message: "invalid UTF-8 in a string", offset: 2))
        #expect(failure([0x22, 0xFF, 0x5C, 0x6E, 0x22]) == Failure(message: "invalid UTF-8 in a string", offset: 5))
    }

    @Test func theReaderStopsAtTheDepthLimit() throws {
        let deepest = String(repeating: "[", count: Value.maxDepth) + String(repeating: "]", count: Value.maxDepth)
        #expect(try JSONReader.parse(deepest).nestingDepth(upTo: Value.maxDepth) == Value.maxDepth)
        let tooDeep = String(repeating: "[", count: Value.maxDepth + 1) + String(repeating: "]", count: Value.maxDepth + 1)
        #expect(failure(Array(tooDeep.utf8)) == Failure(message: "nested more than 512 levels deep", offset: Value.maxDepth))
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONError.self) { try JSONReader.parse(hostile) }
    }

    @Test func theByteWriterWritesWhatTheStringWriterWrites() throws {
        var generator = ValueGenerator(seed: 7)
        for _ in 0..<2000 {
            let value = generator.value(depth: 4)
            var bytes: [UInt8] = []
            value.writeJSON(to: &bytes)
            #expect(text(bytes) == value.jsonText)
            let read = try JSONReader.parse(bytes)
            #expect(Value.isSameKind(read, value) && read == value)
        }
    }

    @Test func theByteWriterEscapesControlCharacters() {
        var bytes: [UInt8] = []
        Value.string("a\u{00}\u{1F}\u{7F}\"\\\n\r\t\u{08}\u{0C}é").writeJSON(to: &bytes)
        #expect(text(bytes) == #""a\u0000\u001f\u007f\"\\\n\r\t\b\fé""#)
        bytes = []
        for i in [0, 7, -7, 10, -10, 123_456_789, Int.max, Int.min] { Value.int(i).writeJSON(to: &bytes); bytes.append(0x20) }
        #expect(text(bytes) == "0 7 -7 10 -10 123456789 9223372036854775807 -9223372036854775808 ")
    }
}

/// What `JSONReader` reported.
struct Failure: Equatable {
    var message: String
    var offset: Int
}

/// The error `JSONReader` reports for `bytes`, or `nil` when they are JSON.
func failure(_ bytes: [UInt8]) -> Failure? {
    do {
        _ = try JSONReader.parse(bytes)
        return nil
    } catch {
        return Failure(message: error.message, offset: error.offset)
    }
}
