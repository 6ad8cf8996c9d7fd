@_spi(Shell) import PatchbayCore

/// The functions of the expression language.
@_spi(Shell)
public enum Builtin: String, Sendable, CaseIterable {
    case len, keys, values, contains, append, prepend, insert, remove, removeAt, merge, get, has
    case map, filter, find, reduce, sort, sortBy, reverse, sum, min, max, abs, round, floor, ceil
    case str, num, int, bool, upper, lower, trim, split, join, replace, range, type

    /// How the function is called, for `help functions`.
    public var signature: String {
        switch self {
        case .len: "len(x)"
        case .keys: "keys(object)"
        case .values: "values(object)"
        case .contains: "contains(x, item)"
        case .append: "append(array, item)"
        case .prepend: "prepend(array, item)"
        case .insert: "insert(array, index, item)"
        case .remove: "remove(array, item) | remove(object, key)"
        case .removeAt: "removeAt(array, index)"
        case .merge: "merge(object, object, ...)"
        case .get: "get(x, key [, default])"
        case .has: "has(x, key)"
        case .map: "map(array, x => ...)"
        case .filter: "filter(array, x => ...)"
        case .find: "find(array, x => ...)"
        case .reduce: "reduce(array, initial, (acc, x) => ...)"
        case .sort: "sort(array)"
        case .sortBy: "sortBy(array, x => key)"
        case .reverse: "reverse(x)"
        case .sum: "sum(array)"
        case .min: "min(array) | min(a, b, ...)"
        case .max: "max(array) | max(a, b, ...)"
        case .abs: "abs(number)"
        case .round: "round(number [, digits])"
        case .floor: "floor(number)"
        case .ceil: "ceil(number)"
        case .str: "str(x)"
        case .num: "num(x)"
        case .int: "int(x)"
        case .bool: "bool(x)"
        case .upper: "upper(string)"
        case .lower: "lower(string)"
        case .trim: "trim(string)"
        case .split: "split(string, separator)"
        case .join: "join(array [, separator])"
        case .replace: "replace(string, old, new)"
        case .range: "range(end) | range(start, end [, step])"
        case .type: "type(x)"
        }
    }

    /// One line saying what the function returns.
    public var summary: String {
        switch self {
        case .len: "characters of a string, elements of an array, keys of an object"
        case .keys: "the keys of an object, in order"
        case .values: "the values of an object, in key order"
        case .contains: "whether an array holds item, a string holds a substring, an object has a key"
        case .append: "the array with item added at the end"
        case .prepend: "the array with item added at the front"
        case .insert: "the array with item inserted at index (0...count)"
        case .remove: "the array without the elements equal to item, or the object without key"
        case .removeAt: "the array without the element at index"
        case .merge: "the objects merged, later keys win (shallow)"
        case .get: "x[key], or default (null) when missing"
        case .has: "whether an object has key, or an array has index"
        case .map: "each element transformed"
        case .filter: "the elements for which the lambda is true"
        case .find: "the first element for which the lambda is true, or null"
        case .reduce: "the elements folded into one value"
        case .sort: "numbers or strings in ascending order"
        case .sortBy: "the elements ordered by the key the lambda computes (stable)"
        case .reverse: "an array or string reversed"
        case .sum: "the sum of numbers (0 for an empty array)"
        case .min: "the smallest number or string"
        case .max: "the largest number or string"
        case .abs: "the absolute value"
        case .round: "rounded half away from zero; an int, or a decimal with digits"
        case .floor: "rounded down to an int"
        case .ceil: "rounded up to an int"
        case .str: "a string: strings as they are, other values as literals"
        case .num: "a number read from a string in the literals' syntax (12, -3, 1.5e3), or the number itself"
        case .int: "an int: decimals truncated toward zero, strings parsed"
        case .bool: "false for false, null, 0 and \"\"; true otherwise"
        case .upper: "upper-cased"
        case .lower: "lower-cased"
        case .trim: "without leading and trailing white space"
        case .split: "the parts between separators (\"\" splits into characters)"
        case .join: "the elements as one string, with separator between them"
        case .replace: "every occurrence of old replaced by new"
        case .range: "the integers from start (0) up to, not including, end"
        case .type: "the type's name: null, bool, int, decimal, string, array or object"
        }
    }

    /// The smallest and largest number of arguments (`nil`: any number).
    var arity: (min: Int, max: Int?) {
        switch self {
        case .len, .keys, .values, .sort, .reverse, .sum, .abs, .floor, .ceil, .str, .num, .int, .bool, .upper,
            .lower, .trim, .type:
            (1, 1)
        case .contains, .append, .prepend, .remove, .removeAt, .has, .map, .filter, .find, .sortBy, .split: (2, 2)
        case .insert, .reduce, .replace: (3, 3)
        case .merge: (2, nil)
        case .get: (2, 3)
        case .round, .join: (1, 2)
        case .min, .max: (1, nil)
        case .range: (1, 3)
        }
    }

    /// The index of the argument that must be a lambda, and how many parameters it takes.
    var lambdaArgument: (index: Int, parameters: Int)? {
        switch self {
        case .map, .filter, .find, .sortBy: (1, 1)
        case .reduce: (2, 2)
        default: nil
        }
    }

    var arityDescription: String {
        let (low, high) = arity
        func count(_ n: Int) -> String { n == 1 ? "1 argument" : "\(n) arguments" }
        guard let high else { return "at least \(count(low))" }
        return low == high ? count(low) : "\(low) to \(high) arguments"
    }
}
