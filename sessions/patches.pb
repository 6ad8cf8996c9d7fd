# Dataflow 2: patches with named ports, wires, knots, delay edges and views.

# A signal counted by a counter patch, through a filtering wire.
signal clicks
patch count counter
wire clicks.out -> count.inc when $.x > 0
probe count.count --future
send clicks {x: 1}
send clicks {x: -5}       # filtered out by the wire's `when`
send clicks {x: 3}

# A knot (a state node) reduced by a pipe; `state` is the knot's state.
knot title = {text: "-", taps: 0}
pipe clicks.out -> title when $.x < 100 : state.text = "x=\($.x)"; state.taps += 1
send clicks {x: 7}
= title

# A user-defined patch type: the body reads its inputs and emits outputs together.
patchtype minmax (a, b) -> (low, high) { emit low min(a, b); emit high max(a, b) }
patch mm minmax a=3 b=9
probe mm
set mm.a = 12

# Feedback through a delay edge: the accumulator counts up only on tick.
var one = 1
patch sum expr expr="step + total"
wire one.value -> sum.step
set sum.total = 0
wire sum.out ~> sum.total
probe sum.out --future
tick
tick
tick

# Views and taps (Wolf's ViewPatch and TapPatch): tap emits x and y together.
patch button view x=2 y=1 width=14 height=3 text="Tap me"
patch finger tap
wire button.frame -> finger.view
probe finger
tap button 5 2
render
