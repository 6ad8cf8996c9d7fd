@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Operators, lowest precedence first: c ? a : b · ?? · || · && · == != · < <= > >= ·
// + - · * / % · unary ! - · postfix .name, [index], (args).

@Suite("Operators: precedence and associativity")
struct PrecedenceTests {
    @Test(arguments: [
        // Each line pits two neighbouring levels against each other.
        ("false ?? true ? 1 : 2", "2"),  // ?: below ??: (false ?? true) ? 1 : 2
        ("false ?? true || true", "false"),  // ?? below ||: false ?? (true || true)
        ("true || false && false", "true"),  // || below &&
        ("false && true == false", "false"),  // && below ==: false && (true == false)
        ("1 < 2 == 2 < 3", "true"),  // == below <
        ("1 + 2 < 2 + 2", "true"),  // < below +
        ("1 + 2 * 3", "7"),  // + below *
        ("10 - 6 % 4", "8"),  // - below %
        ("!false && false", "false"),  // && below unary !: (!false) && false
        ("-state.count * 2", "-4"),  // unary - below postfix .name
        ("-state.xs[1]", "-2"),  // unary - below postfix [index]
        ("-len(state.xs)", "-3"),  // unary - below postfix (args)
        ("(1 + 2) * 3", "9"),  // parentheses group
    ])
    func neighbouringLevels(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test(arguments: [
        ("10 - 2 - 3", "5"),
        ("100 / 10 / 5", "2"),
        ("2 * 3 % 4", "2"),
        ("7 % 4 * 2", "6"),
        ("null ?? null ?? 3", "3"),
        ("true ? 1 : true ? 2 : 3", "1"),
        ("true ? false ? 1 : 2 : 3", "2"),
        ("!!true", "true"),
        ("- -2", "2"),
    ])
    func associativity(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test func aConditionalOnlyEvaluatesTheChosenBranch() throws {
        #expect(try literal(of: "true ? 1 : 1 / 0") == "1")
        #expect(try literal(of: "false ? 1 / 0 : 2") == "2")
    }

    @Test func andAndOrShortCircuit() throws {
        #expect(try literal(of: "false && 1 / 0 == 1") == "false")
        #expect(try literal(of: "true || 1 / 0 == 1") == "true")
    }

    @Test func coalesceOnlyEvaluatesTheRightSideForNull() throws {
        #expect(try literal(of: "state.count ?? 1 / 0") == "2")
        #expect(try literal(of: "false ?? 1") == "false")
        #expect(try literal(of: "0 ?? 1") == "0")
        #expect(try literal(of: "state.nothing ?? 'fallback'") == #""fallback""#)
        #expect(try literal(of: "null ?? null") == "null")
    }
}

@Suite("Operators: arithmetic")
struct ArithmeticTests {
    @Test(arguments: [
        ("1 + 2", "3"), ("1 + 2.5", "3.5"), ("0.1 + 0.2", "0.30000000000000004"),
        ("5 - 7", "-2"), ("5.5 - 0.5", "5.0"),
        ("6 * 7", "42"), ("2 * 1.5", "3.0"),
        ("6 / 3", "2"), ("7 / 2", "3.5"), ("-7 / 2", "-3.5"), ("1 / 3", "0.3333333333333333"),
        ("6.0 / 3", "2.0"), ("7.5 / 2.5", "3.0"),
        ("7 % 3", "1"), ("-7 % 3", "-1"), ("7 % -3", "1"), ("5.5 % 2", "1.5"),
        ("-(3)", "-3"), ("-(-2.5)", "2.5"),
    ])
    func integersStayIntegersUnlessADecimalOrAnInexactDivisionIsInvolved(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test(arguments: [
        "9223372036854775807 + 1",
        "-9223372036854775808 - 1",
        "9223372036854775807 * 2",
        "-9223372036854775808 / -1",
        "-9223372036854775808 % -1",
        "-(-9223372036854775808)",
        "-(state.count - 2 - 9223372036854775807 - 1)",
    ])
    func integerOverflowIsAnErrorNeverAWrap(_ source: String) {
        #expect(problem(of: source) == Problem("integer overflow in '\(source)'; 64-bit integers never wrap", column: 1))
    }

    @Test func decimalOverflowIsAnError() {
        #expect(problem(of: "1e308 * 10") == Problem("decimal overflow in '1e308 * 10'; the result is not a finite number", column: 1))
        #expect(problem(of: "-1e308 - 1e308") == Problem("decimal overflow in '-1e308 - 1e308'; the result is not a finite number", column: 1))
    }

    @Test(arguments: ["1 / 0", "1 % 0", "1.5 / 0", "1 / 0.0", "1.5 % 0.0", "0 / 0"])
    func divisionByZeroIsAnError(_ source: String) {
        #expect(problem(of: source) == Problem("division by zero in '\(source)'", column: 1))
    }

    @Test func theLargestIntegersAreExact() throws {
        #expect(try literal(of: "9223372036854775806 + 1") == "9223372036854775807")
        #expect(try literal(of: "-9223372036854775807 - 1") == "-9223372036854775808")
        #expect(try literal(of: "9007199254740993 - 9007199254740992") == "1")
    }
}

@Suite("Operators: + on strings, arrays and objects")
struct ConcatenationTests {
    @Test func plusConcatenatesStrings() throws {
        #expect(try literal(of: #"'a' + "b" + state.user.name"#) == #""abMax""#)
    }

    @Test func plusConcatenatesArrays() throws {
        #expect(try literal(of: "[1, 2] + [] + [[3]]") == "[1, 2, [3]]")
    }

    @Test func plusMergesObjectsAndTheRightSideWins() throws {
        #expect(try literal(of: "{a: 1, b: 2} + {b: 3, c: 4}") == "{a: 1, b: 3, c: 4}")
        #expect(try literal(of: "state.user + {age: 30}") == #"{name: "Max", age: 30}"#)
    }

    @Test func theMergeIsShallow() throws {
        #expect(try literal(of: "{a: {x: 1, y: 2}} + {a: {x: 3}}") == "{a: {x: 3}}")
    }

    @Test(arguments: [
        (#""a" + 1"#, "cannot apply '+' to a string and an int in '\"a\" + 1'"),
        ("[1] + 1", "cannot apply '+' to an array and an int in '[1] + 1'"),
        ("{} + []", "cannot apply '+' to an object and an array in '{} + []'"),
        ("null + 1", "cannot apply '+' to null and an int in 'null + 1'"),
        ("true + true", "cannot apply '+' to a bool and a bool in 'true + true'"),
        (#""ab" - "b""#, "cannot apply '-' to a string and a string in '\"ab\" - \"b\"'"),
        ("[1] * 2", "cannot apply '*' to an array and an int in '[1] * 2'"),
        ("1.5 / 'x'", "cannot apply '/' to a decimal and a string in '1.5 / 'x''"),
        ("{} % 2", "cannot apply '%' to an object and an int in '{} % 2'"),
    ])
    func mixingTypesIsAnError(_ source: String, _ message: String) {
        #expect(problem(of: source) == Problem(message, column: 1))
    }
}

@Suite("Operators: comparison and equality")
struct ComparisonTests {
    @Test(arguments: [
        ("1 == 1.0", "true"), ("1 != 1.0", "false"), ("0 == -0.0", "true"),
        ("[1, 2] == [1.0, 2]", "true"), ("{a: 1, b: 2} == {b: 2.0, a: 1}", "true"),
        ("[1, 2] == [2, 1]", "false"), ("{a: 1} == {a: 1, b: null}", "false"),
        ("null == null", "true"), ("null == false", "false"), ("0 == false", "false"),
        (#""1" == 1"#, "false"), ("'a' == \"a\"", "true"),
        ("9007199254740993 == 9007199254740992.0", "false"),
    ])
    func equalityIsStructuralAndNumbersCompareByMagnitude(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test func equalValuesHashAlike() {
        let values: Set<Value> = [1, 1.0, 2, ["a": 1, "b": [2.0]], ["b": [2], "a": 1.0], "1", nil]
        #expect(values.count == 5)
    }

    @Test(arguments: [
        ("1 < 2", "true"), ("2 <= 2", "true"), ("3 > 2.5", "true"), ("2.5 >= 3", "false"),
        ("-1 < 0", "true"), ("9007199254740993 > 9007199254740992.0", "true"),
        (#""apple" < "banana""#, "true"), (#""b" > "abc""#, "true"), (#""a" <= "a""#, "true"),
        (#""Z" < "a""#, "true"), (#""" < "a""#, "true"),
    ])
    func orderingComparesNumbersOrStrings(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test(arguments: [
        (#"1 < "2""#, "cannot apply '<' to an int and a string in '1 < \"2\"'"),
        ("null >= 0", "cannot apply '>=' to null and an int in 'null >= 0'"),
        ("[1] > [0]", "cannot apply '>' to an array and an array in '[1] > [0]'"),
        ("true <= false", "cannot apply '<=' to a bool and a bool in 'true <= false'"),
    ])
    func orderingOtherValuesIsAnError(_ source: String, _ message: String) {
        #expect(problem(of: source) == Problem(message, column: 1))
    }
}

@Suite("Operators: logic and unary operators")
struct LogicTests {
    @Test(arguments: [
        ("true && true", "true"), ("true && false", "false"), ("false || true", "true"),
        ("false || false", "false"), ("!false", "true"), ("!(1 < 2)", "false"),
    ])
    func booleanLogic(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test func operandsOfLogicMustBeBools() {
        #expect(problem(of: "1 && true") == Problem("the left side of '&&' must be a bool, not an int in '1'", column: 1))
        #expect(problem(of: "true && 'yes'") == Problem("the right side of '&&' must be a bool, not a string in ''yes''", column: 9))
        #expect(problem(of: "null || true") == Problem("the left side of '||' must be a bool, not null in 'null'", column: 1))
        #expect(problem(of: "false || []") == Problem("the right side of '||' must be a bool, not an array in '[]'", column: 10))
        #expect(problem(of: "state.count ? 1 : 2") == Problem("the condition of '?:' must be a bool, not an int in 'state.count'", column: 1))
    }

    @Test func unaryOperatorsCheckTheirOperand() {
        #expect(problem(of: "!1") == Problem("cannot apply '!' to an int in '!1'", column: 1))
        #expect(problem(of: "!null") == Problem("cannot apply '!' to null in '!null'", column: 1))
        #expect(problem(of: #"-"a""#) == Problem(#"cannot apply '-' to a string in '-"a"'"#, column: 1))
        #expect(problem(of: "1 + -[1]") == Problem("cannot apply '-' to an array in '-[1]'", column: 5))
        // Unary minus binds tighter than +, so it complains about "a" alone.
        #expect(problem(of: #"-"a" + "b""#) == Problem(#"cannot apply '-' to a string in '-"a"'"#, column: 1))
    }
}

@Suite("Operators: member and index access")
struct AccessTests {
    @Test(arguments: [
        ("state.user.name", #""Max""#),
        ("state.items[1].title", #""Eggs""#),
        (#"state["user"]["name"]"#, #""Max""#),
        ("state.xs[state.count]", "3"),
        (#""héllo"[1]"#, #""é""#),
        ("[10, 20][0]", "10"),
        ("{a: {b: 1}}.a.b", "1"),
        ("state.nothing", "null"),
    ])
    func readingPresentData(_ source: String, _ result: String) throws {
        #expect(try literal(of: source) == result)
    }

    @Test func theGuestExampleOfTheSpec() throws {
        let withUser = Bindings(state: ["user": ["name": "Max"]])
        let withNullUser = Bindings(state: ["user": nil])
        let withEmptyUser = Bindings(state: ["user": [:]])
        let source = #"state.user?.name ?? "guest""#
        #expect(try literal(of: source, withUser) == #""Max""#)
        #expect(try literal(of: source, withNullUser) == #""guest""#)
        #expect(try literal(of: source, withEmptyUser) == #""guest""#)
    }

    @Test func optionalAccessReadsMissingDataAsNull() throws {
        #expect(try literal(of: "state?.missing") == "null")
        #expect(try literal(of: "state.user?.age") == "null")
        #expect(try literal(of: "state.xs?[10]") == "null")
        #expect(try literal(of: #"state?["missing"]"#) == "null")
        #expect(try literal(of: #""abc"?[5]"#) == "null")
        #expect(try literal(of: "null?.a") == "null")
        #expect(try literal(of: "null?[0]") == "null")
    }

    @Test func optionalChainingShortCircuitsTheRestOfTheChain() throws {
        // `state.nothing` is null, so `.a.b[0].c` is never read.
        #expect(try literal(of: "state.nothing?.a.b[0].c") == "null")
        #expect(try literal(of: "state.nothing?[0].a") == "null")
        // Nor is the index expression evaluated.
        #expect(try literal(of: "state.nothing?[1 / 0]") == "null")
    }

    @Test func optionalAccessOnlyGuardsItsOwnStep() {
        // `state.user?.age` is null (no such key), and `.years` of null is an error, as in JavaScript.
        #expect(problem(of: "state.user?.age.years") == Problem("cannot read .years of null in 'state.user?.age.years'", column: 1))
        // `.` before the `?.` is not optional: a missing key there is an error.
        #expect(problem(of: "state.missing?.name")
            == Problem("no key 'missing' (keys: count, user, items, xs, nothing) in 'state.missing'; use ?. or ?? to read optional data", column: 1))
    }

    @Test func optionalAccessStillRejectsTheWrongType() {
        #expect(problem(of: "state.count?.a") == Problem("cannot read .a of an int in 'state.count?.a'", column: 1))
    }

    @Test func aNameMayFollowADotOnTheNextLineInsideBrackets() throws {
        #expect(try literal(of: "(state\n  .user\n  .name)") == #""Max""#)
    }
}
