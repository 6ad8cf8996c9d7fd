@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// The parser takes shortcuts for the common case: an operand with no operator after it skips the
// precedence levels, a string without escapes is taken straight from the source, an integer is
// read from its digits. These tests hold each shortcut to the general rules it stands in for.

@Suite("Parsing: shortcuts agree with the general rules")
struct ParserShortcutTests {
    /// Every operator that may follow an operand, with operands it applies to and the result.
    static let operators: [(source: String, value: String)] = [
        ("7 + 2", "9"), ("7 - 2", "5"), ("7 * 2", "14"), ("7 / 2", "3.5"), ("7 % 2", "1"),
        ("7 == 2", "false"), ("7 != 2", "true"), ("7 < 2", "false"), ("7 <= 2", "false"), ("7 > 2", "true"), ("7 >= 2", "true"),
        ("true && false", "false"), ("false || true", "true"), ("null ?? 2", "2"), ("true ? 1 : 2", "1"),
    ]

    @Test(arguments: operators)
    func everyOperatorContinuesAnOperandWhereverItIs(_ source: String, _ value: String) throws {
        #expect(try literal(of: source) == value)
        #expect(try literal(of: "{a: \(source), b: 0}") == "{a: \(value), b: 0}")
        #expect(try literal(of: "[\(source), 0]") == "[\(value), 0]")
        #expect(try literal(of: "[(\(source))]") == "[\(value)]")
        #expect(try literal(of: #""\(\#(source))""#) == #""\#(value)""#)
        #expect(try literal(of: "len([\(source)])") == "1")
    }

    @Test(arguments: [
        ("-7 + 2", "-5"), ("-2.5 * 2", "-5.0"), ("!false && true", "true"), (#""a" + "b""#, #""ab""#), ("state.count + 1", "3"),
        ("state.xs[0] + 1", "2"), ("state.user?.name ?? 1", #""Max""#), ("(7) - 2", "5"), ("[1][0] + 1", "2"), ("{a: 1}.a + 1", "2"),
        (#"len("ab") + 1"#, "3"), ("counter > 4 ? 1 : 2", "1"),
    ])
    func theOperandBeforeAnOperatorMayBeAnyPrimary(_ source: String, _ value: String) throws {
        #expect(try literal(of: source) == value)
        #expect(try literal(of: "{a: \(source)}") == "{a: \(value)}")
    }

    @Test(arguments: [",", ":", ";", ")", "]", "}", "=", "+=", "-=", "=>", "->", "~>"])
    func anythingElseEndsTheExpressionAfterAnOperand(_ symbol: String) throws {
        // Commands read an expression followed by more syntax: it must stop right before it.
        let (expression, end) = try Expression.parse("12 \(symbol) 3", from: 0)
        #expect(end == 3)
        #expect(expression.range == 0..<2)
    }

    @Test func aNewLineEndsTheExpressionOutsideBrackets() throws {
        #expect(try Expression.parse("12\n+ 3", from: 0).end == 2)
        #expect(try literal(of: "[12\n+ 3]") == "[15]")
    }

    @Test func stringsWithAndWithoutEscapesReadTheSame() throws {
        #expect(try literal(of: #""abc""#) == #""abc""#)
        #expect(try literal(of: #""a\u0062c""#) == #""abc""#)
        #expect(try literal(of: "'abc'") == #""abc""#)
        #expect(try literal(of: #"'a\'c'"#) == #""a'c""#)
        #expect(try literal(of: #""it's""#) == #""it's""#)
        #expect(try literal(of: #"'say "hi"'"#) == #""say \"hi\"""#)
        #expect(try literal(of: #""""#) == #""""#)
        #expect(try literal(of: "''") == #""""#)
        #expect(try literal(of: #""é😀""#) == #""é😀""#)
        #expect(try literal(of: #"{"k": 1, "\u006c": 2, 'm': 3}"#) == "{k: 1, l: 2, m: 3}")
    }

    @Test func integersReadFromTheirDigitsKeepTheirLimits() throws {
        #expect(try literal(of: "9223372036854775807") == "9223372036854775807")
        #expect(try literal(of: "-9223372036854775808") == "-9223372036854775808")
        #expect(try literal(of: "{a: 0, b: 10, c: 200000}") == "{a: 0, b: 10, c: 200000}")
    }

    @Test(arguments: [
        ("{a: 1 b: 2}", "expected ',' or '}', found 'b'", 7),
        ("{key: 'k' value: 1}", "expected ',' or '}', found 'value'", 11),
        ("{a: 1, b 2}", "expected ':' after the key 'b', found '2'", 10),
        ("{'key': 1 , value 2}", "expected ':' after the key 'value', found '2'", 19),
        (#"{"k\(1)": 1}"#, "expected a key, found an interpolated string", 2),
        (#"{a: "x\qy"}"#, #"invalid escape '\q' in a string; use \n, \t, \", \\, \u{...} or \(expr)"#, 7),
        (#"{a: "xy}"#, "unterminated string; add the closing quote", 5),
        ("{a: 007}", "invalid number '007'", 5),
        ("{a: 18446744073709551615}",
         "integer 18446744073709551615 does not fit in 64 bits; write it as a decimal: 18446744073709551615.0", 5),
        ("{a: 18446744073709551616}",
         "integer 18446744073709551616 does not fit in 64 bits; write it as a decimal: 18446744073709551616.0", 5),
        ("{a: 1,, b: 2}", "expected a key or '}', found ','", 7),
        ("{a: 1", "expected ',' or '}', found the end of the input", 6),
        ("{a: }", "expected a value, found '}'", 5),
        ("{a: 1 +}", "expected a value, found '}'", 8),
    ])
    func errorsInObjectLiteralsPointAtTheOffendingToken(_ source: String, _ message: String, _ column: Int) throws {
        let error = try #require(expressionError(of: source))
        #expect(error.isSyntaxError)
        #expect(Problem(error, in: source) == Problem(message, column: column))
    }
}
