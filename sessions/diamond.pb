# Dataflow 1: a diamond, transactions and errors that stay local.
# Every change propagates as one wave: each node is evaluated once, after all its inputs.

var a = 1
derive b = a + 1
derive c = a * 2
derive d = b + c          # d depends on a twice, through b and through c
probe d                   # prints d's value now, then every change

set a = 2                 # one wave: d goes 4 -> 7 with no mixed value in between
why d                     # the cause chain of d's current value

# A transaction applies its net change in one wave, and subscribers hear once.
begin
set a = 3
set a = 10
commit

# A -> B -> A is no change at all: the probe stays silent.
begin
set a = 5
set a = 10
commit

# Errors stay local: a failing node keeps its last value and is marked failed.
var n = 4
derive ratio = 100 / n
derive label = "ratio is \(ratio)"
set n = 0
show ratio
set n = 5
show label

# The whole graph: derive edges (..>) and wires (->).
patch inc map fn="$ + 1"
wire d.value -> inc.in
graph
