@_spi(Shell) import PatchbayCore
@_spi(Shell) import PatchbayGraph
import Testing

// Functions (at least): len keys values contains append prepend insert remove removeAt merge
// get has map filter find reduce sort sortBy reverse sum min max abs round floor ceil str num int bool
// upper lower trim split join replace range type; lambdas only as arguments.

/// Examples of every function: source and the result printed as a literal.
private let examples: [Builtin: [(source: String, result: String)]] = [
    .len: [(#"len("héllo 👍🏽")"#, "7"), ("len(state.xs)", "3"), ("len({a: 1, b: 2})", "2"), ("len('')", "0")],
    .keys: [("keys({zebra: 1, apple: 2})", #"["zebra", "apple"]"#), ("keys({})", "[]")],
    .values: [("values({zebra: 1, apple: [2]})", "[1, [2]]")],
    .contains: [
        ("contains(state.xs, 2)", "true"), ("contains(state.xs, 2.0)", "true"), ("contains([[1]], [1])", "true"),
        ("contains(state.xs, 9)", "false"), (#"contains("haystack", "st")"#, "true"),
        (#"contains(state.user, "name")"#, "true"), (#"contains(state.user, "age")"#, "false"),
    ],
    .append: [("append(state.xs, 4)", "[1, 2, 3, 4]"), ("append([], [1])", "[[1]]")],
    .prepend: [("prepend(state.xs, 0)", "[0, 1, 2, 3]")],
    .insert: [("insert(state.xs, 1, 9)", "[1, 9, 2, 3]"), ("insert(state.xs, 3, 9)", "[1, 2, 3, 9]"), ("insert([], 0, 'a')", #"["a"]"#)],
    .remove: [
        ("remove([1, 2, 1, 3], 1)", "[2, 3]"), ("remove([1, 2], 2.0)", "[1]"), ("remove([1, 2], 5)", "[1, 2]"),
        (#"remove({a: 1, b: 2}, "a")"#, "{b: 2}"), (#"remove({a: 1}, "zz")"#, "{a: 1}"),
    ],
    .removeAt: [("removeAt(state.xs, 0)", "[2, 3]"), ("removeAt(state.xs, 2)", "[1, 2]")],
    .merge: [("merge({a: 1, b: 2}, {b: 3}, {c: 4})", "{a: 1, b: 3, c: 4}"), ("merge({a: {x: 1}}, {a: {y: 2}})", "{a: {y: 2}}")],
    .get: [
        (#"get(state.user, "name")"#, #""Max""#), (#"get(state.user, "age")"#, "null"), (#"get(state.user, "age", 30)"#, "30"),
        ("get(state.xs, 1)", "2"), ("get(state.xs, 7, 0)", "0"), ("get(state.xs, -1)", "null"), (#"get(null, "a", 1)"#, "1"),
    ],
    .has: [(#"has(state.user, "name")"#, "true"), (#"has(state.user, "age")"#, "false"), ("has(state.xs, 2)", "true"), ("has(state.xs, 3)", "false")],
    .map: [
        ("map(state.items, t => t.title)", #"["Milk", "Eggs"]"#), ("map([], x => 1 / 0)", "[]"),
        ("map([1, 2], x => map([10, 20], y => x * y))", "[[10, 20], [20, 40]]"),
        ("map([1], x => map([2], x => x))", "[[2]]"),
    ],
    .filter: [("filter(state.xs, x => x % 2 == 1)", "[1, 3]"), ("filter(state.items, t => !t.done)", #"[{title: "Milk", done: false}]"#)],
    .find: [("find(state.items, t => t.done).title", #""Eggs""#), ("find(state.xs, x => x > 5)", "null")],
    .reduce: [
        ("reduce(state.xs, 0, (acc, x) => acc + x)", "6"), ("reduce([], 'empty', (acc, x) => x)", #""empty""#),
        (#"reduce(state.items, "", (acc, t) => acc + t.title)"#, #""MilkEggs""#),
        ("reduce([1, 2, 3], [], (acc, x) => [x] + acc)", "[3, 2, 1]"),
    ],
    .sort: [("sort([3, 1.5, 2, -1])", "[-1, 1.5, 2, 3]"), (#"sort(["b", "a", "B"])"#, #"["B", "a", "b"]"#), ("sort([])", "[]")],
    .sortBy: [
        ("sortBy(state.items, t => t.title)", #"[{title: "Eggs", done: true}, {title: "Milk", done: false}]"#),
        // Stable: equal keys keep their order.
        ("sortBy([{k: 1, n: 'a'}, {k: 0, n: 'b'}, {k: 1, n: 'c'}], e => e.k)", #"[{k: 0, n: "b"}, {k: 1, n: "a"}, {k: 1, n: "c"}]"#),
    ],
    .reverse: [("reverse(state.xs)", "[3, 2, 1]"), (#"reverse("abc👍🏽")"#, #""👍🏽cba""#)],
    .sum: [("sum(state.xs)", "6"), ("sum([1, 2.5])", "3.5"), ("sum([])", "0")],
    .min: [("min(state.xs)", "1"), ("min(3, 1.5, 2)", "1.5"), (#"min(["b", "a"])"#, #""a""#), ("min([7])", "7")],
    .max: [("max(state.xs)", "3"), ("max(3, 4.5, 2)", "4.5"), (#"max("b", "abc")"#, #""b""#)],
    .abs: [("abs(-3)", "3"), ("abs(2)", "2"), ("abs(-2.5)", "2.5")],
    .round: [
        ("round(2.5)", "3"), ("round(-2.5)", "-3"), ("round(2.4)", "2"), ("round(7)", "7"),
        ("round(3.14159, 2)", "3.14"), ("round(2.675, 0)", "3.0"),
    ],
    .floor: [("floor(1.7)", "1"), ("floor(-1.2)", "-2"), ("floor(4)", "4")],
    .ceil: [("ceil(1.2)", "2"), ("ceil(-1.7)", "-1"), ("ceil(4)", "4")],
    .str: [
        ("str(42)", #""42""#), ("str(1.0)", #""1.0""#), (#"str("as is")"#, #""as is""#), ("str(null)", #""null""#),
        ("str(state.user)", #""{name: \"Max\"}""#),
    ],
    .num: [(#"num("42")"#, "42"), (#"num(" 3.5 ")"#, "3.5"), (#"num("1e3")"#, "1000.0"), ("num(7)", "7"), ("num(2.5)", "2.5")],
    .int: [
        ("int(3.9)", "3"), ("int(-3.9)", "-3"), (#"int("12")"#, "12"), (#"int(" -4 ")"#, "-4"), ("int(true)", "1"),
        ("int(false)", "0"), ("int(5)", "5"),
    ],
    .bool: [
        ("bool(false)", "false"), ("bool(null)", "false"), ("bool(0)", "false"), ("bool(0.0)", "false"), (#"bool("")"#, "false"),
        ("bool(true)", "true"), ("bool(-1)", "true"), (#"bool("false")"#, "true"), ("bool([])", "true"), ("bool({})", "true"),
    ],
    .upper: [(#"upper("straße")"#, #""STRASSE""#)],
    .lower: [(#"lower("ÄBC")"#, #""äbc""#)],
    .trim: [("trim(\"  \\t padded \\n \")", #""padded""#), (#"trim("   ")"#, #""""#)],
    .split: [
        (#"split("a,b,,c", ",")"#, #"["a", "b", "", "c"]"#), (#"split("a--b", "--")"#, #"["a", "b"]"#),
        (#"split("héy", "")"#, #"["h", "é", "y"]"#), (#"split("", ",")"#, #"[""]"#),
    ],
    .join: [(#"join(["a", 1, null, 2.0], "-")"#, #""a-1-null-2.0""#), (#"join(["x", "y"])"#, #""xy""#), ("join([], ', ')", #""""#)],
    .replace: [(#"replace("a-b-c", "-", "+")"#, #""a+b+c""#), (#"replace("aaa", "aa", "b")"#, #""ba""#)],
    .range: [
        ("range(4)", "[0, 1, 2, 3]"), ("range(2, 5)", "[2, 3, 4]"), ("range(0, 10, 3)", "[0, 3, 6, 9]"),
        ("range(5, 0, -2)", "[5, 3, 1]"), ("range(0)", "[]"), ("range(-3)", "[]"), ("range(5, 1)", "[]"),
        ("range(0, -5, -9223372036854775808)", "[0]"), ("range(9223372036854775806, 9223372036854775807)", "[9223372036854775806]"),
        ("range(-9223372036854775808, 9223372036854775807, 9223372036854775807)", "[-9223372036854775808, -1, 9223372036854775806]"),
    ],
    .type: [
        ("type(null)", #""null""#), ("type(true)", #""bool""#), ("type(1)", #""int""#), ("type(1.0)", #""decimal""#),
        ("type('s')", #""string""#), ("type([])", #""array""#), ("type({})", #""object""#), ("type(6 / 3)", #""int""#),
    ],
]

@Suite("Functions")
struct FunctionTests {
    @Test(arguments: Builtin.allCases)
    func everyFunctionWorksAsDocumented(_ function: Builtin) throws {
        let cases = try #require(examples[function], "no example for \(function.rawValue)")
        for (source, result) in cases {
            #expect(source.hasPrefix(function.rawValue + "("), "the example \(source) is not about \(function.rawValue)")
            #expect(try literal(of: source) == result, "\(source)")
        }
    }

    @Test(arguments: Builtin.allCases)
    func everyFunctionHasASignatureAndASummary(_ function: Builtin) {
        #expect(function.signature.hasPrefix(function.rawValue + "("))
        #expect(!function.summary.isEmpty)
    }

    @Test func functionsDoNotChangeTheirArguments() throws {
        let source = "[append(state.xs, 4), removeAt(state.xs, 0), insert(state.xs, 0, 0), reverse(state.xs), state.xs]"
        #expect(try literal(of: source) == "[[1, 2, 3, 4], [2, 3], [0, 1, 2, 3], [3, 2, 1], [1, 2, 3]]")
    }

    @Test func lambdasSeeTheNamesAroundThem() throws {
        #expect(try literal(of: "map(state.xs, x => x * state.count + counter)") == "[7, 9, 11]")
        #expect(try literal(of: "map([1, 2], x => filter(state.xs, y => y > x))") == "[[2, 3], [3]]")
        // A parameter may shadow a special name.
        #expect(try literal(of: "map([1], state => state + 1)") == "[2]")
    }

    @Test func aLambdaMayWrapItsParametersInParentheses() throws {
        #expect(try literal(of: "map(state.xs, (x) => x + 1)") == "[2, 3, 4]")
        #expect(try literal(of: "reduce(state.xs, 1, (product, x) => product * x)") == "6")
    }

    @Test func functionCallsMaySpanLines() throws {
        #expect(try literal(of: "map(\n  state.items,\n  t => t.title,\n)") == #"["Milk", "Eggs"]"#)
    }
}

@Suite("Functions: errors")
struct FunctionErrorTests {
    @Test(arguments: [
        ("len(1)", "len: takes a string, an array or an object, not int in 'len(1)'"),
        ("keys([1])", "keys: argument 1 must be an object, not array in 'keys([1])'"),
        ("values('x')", "values: argument 1 must be an object, not string in 'values('x')'"),
        ("contains(1, 1)", "contains: takes an array, a string or an object, not int in 'contains(1, 1)'"),
        ("contains('abc', 1)", "contains: argument 2 must be a string, not int in 'contains('abc', 1)'"),
        ("append({}, 1)", "append: argument 1 must be an array, not object in 'append({}, 1)'"),
        ("prepend(null, 1)", "prepend: argument 1 must be an array, not null in 'prepend(null, 1)'"),
        ("insert([1], 2, 0)", "insert: index 2 is outside 0...1 in 'insert([1], 2, 0)'"),
        ("insert([1], -1, 0)", "insert: index -1 is outside 0...1 in 'insert([1], -1, 0)'"),
        ("insert([1], 0.0, 0)", "insert: argument 2 must be an int, not decimal in 'insert([1], 0.0, 0)'"),
        ("remove('abc', 'a')", "remove: takes an array or an object, not string in 'remove('abc', 'a')'"),
        ("removeAt([1], 1)", "index 1 out of range (count 1) in 'removeAt([1], 1)'"),
        ("merge({}, [])", "merge: argument 2 must be an object, not array in 'merge({}, [])'"),
        ("get(1, 2)", "get: takes an object and a key, or an array and an index in 'get(1, 2)'"),
        ("has([1], 'a')", "has: takes an object and a key, or an array and an index in 'has([1], 'a')'"),
        ("map(1, x => x)", "map: argument 1 must be an array, not int in 'map(1, x => x)'"),
        ("filter(state.xs, x => x)", "filter: the lambda must return a bool, not int (for 1) in 'filter(state.xs, x => x)'"),
        ("find(state.xs, x => null)", "find: the lambda must return a bool, not null (for 1) in 'find(state.xs, x => null)'"),
        ("reduce({}, 0, (a, x) => a)", "reduce: argument 1 must be an array, not object in 'reduce({}, 0, (a, x) => a)'"),
        ("sort([1, 'a'])", "sort: can only order numbers or strings, not a mix of int, string in 'sort([1, 'a'])'"),
        ("sort([[1], [2]])", "sort: can only order numbers or strings, not array in 'sort([[1], [2]])'"),
        ("sortBy(state.items, t => t.done)", "sortBy: can only order numbers or strings, not bool in 'sortBy(state.items, t => t.done)'"),
        ("reverse(1)", "reverse: takes an array or a string, not int in 'reverse(1)'"),
        ("sum([1, '2'])", "sum: takes numbers, not string in 'sum([1, '2'])'"),
        ("sum([9223372036854775807, 1])", "integer overflow in 'sum([9223372036854775807, 1])'; 64-bit integers never wrap"),
        ("min([])", "min: the array is empty in 'min([])'"),
        ("max(1, 'a')", "max: cannot compare string with int in 'max(1, 'a')'"),
        ("abs('1')", "abs: takes a number, not string in 'abs('1')'"),
        ("abs(-9223372036854775808)", "integer overflow in 'abs(-9223372036854775808)'; 64-bit integers never wrap"),
        ("round(1.5, 16)", "round: digits must be in 0...15 in 'round(1.5, 16)'"),
        ("round(null)", "round: takes a number, not null in 'round(null)'"),
        ("floor(1e300)", "integer overflow in 'floor(1e300)'; 64-bit integers never wrap"),
        ("ceil('1')", "ceil: takes a number, not string in 'ceil('1')'"),
        ("num('abc')", #"num: "abc" is not a number in 'num('abc')'"#),
        ("int('1.5')", #"int: "1.5" is not an integer in 'int('1.5')'"#),
        ("int([])", "int: takes a number or a string, not array in 'int([])'"),
        ("int(1e19)", "integer overflow in 'int(1e19)'; 64-bit integers never wrap"),
        ("upper(1)", "upper: argument 1 must be a string, not int in 'upper(1)'"),
        ("split('a', 1)", "split: argument 2 must be a string, not int in 'split('a', 1)'"),
        ("join('ab')", "join: argument 1 must be an array, not string in 'join('ab')'"),
        ("replace('abc', '', 'x')", "replace: the text to replace is empty in 'replace('abc', '', 'x')'"),
        ("range(0, 10, 0)", "range: the step must not be 0 in 'range(0, 10, 0)'"),
        ("range(2000000)", "the range is too large in 'range(2000000)'; the limit is 1000000"),
        ("range(-9223372036854775808, 9223372036854775807)",
         "the range is too large in 'range(-9223372036854775808, 9223372036854775807)'; the limit is 1000000"),
        // The true length is 2^63: the length must not be computed with a wrapped difference.
        ("range(-9223372036854775808, 9223372036854775807, 2)",
         "the range is too large in 'range(-9223372036854775808, 9223372036854775807, 2)'; the limit is 1000000"),
        ("range('a')", "range: argument 1 must be an int, not string in 'range('a')'"),
    ])
    func wrongArgumentsAreReportedWithTheCall(_ source: String, _ message: String) {
        #expect(problem(of: source) == Problem(message, column: 1))
    }

    @Test(arguments: [
        ("len()", "len takes 1 argument, got 0"),
        ("len(1, 2)", "len takes 1 argument, got 2"),
        ("insert([], 0)", "insert takes 3 arguments, got 2"),
        ("get({})", "get takes 2 to 3 arguments, got 1"),
        ("merge({})", "merge takes at least 2 arguments, got 1"),
        ("min()", "min takes at least 1 argument, got 0"),
        ("range(1, 2, 3, 4)", "range takes 1 to 3 arguments, got 4"),
    ])
    func theNumberOfArgumentsIsChecked(_ source: String, _ message: String) {
        #expect(problem(of: source) == Problem("\(message) in '\(source)'", column: 1))
    }

    @Test func lambdaArgumentsAreChecked() {
        #expect(problem(of: "map(state.xs, 1)") == Problem("map: argument 2 must be a lambda such as x => ... in '1'", column: 15))
        #expect(problem(of: "reduce(state.xs, 0, acc)")
            == Problem("reduce: argument 3 must be a lambda such as (acc, x) => ... in 'acc'", column: 21))
        #expect(problem(of: "map(state.xs, (a, b) => a)")
            == Problem("map: the lambda takes one parameter (x => ...) in '(a, b) => a'", column: 15))
        #expect(problem(of: "reduce(state.xs, 0, x => x)")
            == Problem("reduce: the lambda takes two parameters ((acc, x) => ...) in 'x => x'", column: 21))
    }

    @Test func anErrorInsideALambdaPointsIntoTheLambda() {
        #expect(problem(of: "map(state.xs, x => x / 0)") == Problem("division by zero in 'x / 0'", column: 20))
        #expect(problem(of: "map(state.items, t => t.name)")
            == Problem("no key 'name' (keys: title, done) in 't.name'; use ?. or ?? to read optional data", column: 23))
    }

    @Test func onlyFunctionsCanBeCalled() {
        #expect(problem(of: "state.xs(1)") == Problem("only functions can be called; see 'help functions'", column: 9))
        #expect(problem(of: "len (state.xs)") == Problem("only functions can be called; see 'help functions'", column: 5))
    }
}
