# Patchbay demo: the value and expression language that reducers, wires and presenters use.
# Run it alone with: patchbay --echo sessions/expressions.pb

# Values are JSON, with integers kept apart from decimals.
= 1 + 2 * 3
= 7 / 2
= 6 / 3
= 1 == 1.0

# Literals take single quotes, bare keys, trailing commas and interpolation.
= {title: 'milk', done: false, tags: ['shop', 'daily',],}
= "2 + 2 is \(2 + 2)"

# + merges objects (right wins), joins strings and arrays.
= {name: "Max", age: 30} + {age: 31}
= [1, 2] + [3]

# Optional data: ?. and ?? read what may be missing.
= {user: null}.user?.name ?? "guest"

# Functions, with lambdas as arguments.
= map(range(5), x => x * x)
= reduce([1, 2, 3, 4], 0, (acc, x) => acc + x)
= sortBy([{n: "b", age: 3}, {n: "a", age: 1}], p => p.age)
= join(map(split("a,b,c", ","), s => upper(s)), "-")


