/**
 * The compiler-like benchmark (issue 15), standing in for paper 000's Smalltalk "Compiler
 * Benchmark" (parse a method, emit bytecodes, create a method object; paper 000 lines 808-815),
 * in the source language (the language: compiler/parser.ts).
 *
 * Contract
 * - Entry `CompilerBenchmark run: n` (class side): for i = 1..n
 *   1. read the run's source "file" into a String through SourceFile: main-core primitives
 *      120/121, one call per character (paper 000 lines 756-763: old C primitives run on the
 *      main core; that the benchmark reads a file per expression is the lab's model, the paper
 *      does not say where its methods' sources came from), then tokenise the variable bindings
 *      ("name value" pairs) out of it;
 *   2. generate one arithmetic expression source String from an ExprGenerator (a linear
 *      congruential generator, seed := (seed * 75 + 74) \\ 65537, started at 42 once per run:
 *      no host randomness), with numbers 0..999, the file's variable names, + - * and
 *      parentheses, at most 4 levels deep;
 *   3. tokenise it (Tokenizer -> ExprTokens), parse it by recursive descent with precedence
 *      (* over + and -, left-associative; ExprParser -> NumberNode / VariableNode / BinaryNode);
 *   4. compile the tree into an ExprMethod (CodeGen: a code Array for a stack machine, a literal
 *      Array, the variable names in order of first use);
 *   5. evaluate it on a StackMachine with variable k of the file having the value
 *      (fileValue * i + k) \\ 32749, every operation's result taken \\ 32749 (so a product stays
 *      below 2^30, the SmallInteger range);
 *   and answer the sum of the results \\ 1000003. Each compiled ExprMethod is also stored
 *   into the global LastMethod: a store into a snapshot object (its Association), which the
 *   read-mostly heap's store barrier moves to the read-write heap (paper 000 lines 1287-1291).
 * - Object-heavy on purpose: tokens, nodes, collections, streams and strings are small objects
 *   and most sends go to non-SmallInteger receivers.
 * - program.ts's expectedResult('compiler', n) is the same algorithm in TypeScript.
 */
export const COMPILER_BENCH_SOURCE = String.raw`
Object subclass: #ExprToken instanceVariableNames: 'kind value' !
Object subclass: #Tokenizer instanceVariableNames: 'source position limit' !
Object subclass: #ExprNode instanceVariableNames: '' !
ExprNode subclass: #NumberNode instanceVariableNames: 'value' !
ExprNode subclass: #VariableNode instanceVariableNames: 'name' !
ExprNode subclass: #BinaryNode instanceVariableNames: 'operator left right' !
Object subclass: #ExprParser instanceVariableNames: 'tokenizer token' !
Object subclass: #CodeGen instanceVariableNames: 'code literals variables' !
Object subclass: #ExprMethod instanceVariableNames: 'code literals variables' !
Object subclass: #StackMachine instanceVariableNames: 'stack' !
Object subclass: #ExprGenerator instanceVariableNames: 'seed names' !
Object subclass: #CompilerBenchmark instanceVariableNames: '' !
"the last method compiled, as an image keeps its last change: a store into a snapshot object (an Association)"
Smalltalk global: #LastMethod !

"---------------------------------------------------------------- tokens"
ExprToken class >> kind: aSymbol value: anObject
    ^ self new setKind: aSymbol value: anObject
!
ExprToken >> setKind: aSymbol value: anObject
    kind := aSymbol.
    value := anObject
!
ExprToken >> kind
    ^ kind
!
ExprToken >> value
    ^ value
!
ExprToken >> isOperator: aCode
    ^ kind == #op and: [value = aCode]
!

"---------------------------------------------------------------- the tokenizer (over a String or the SourceFile)"
Tokenizer class >> on: aSource
    ^ self new setSource: aSource
!
Tokenizer >> setSource: aSource
    source := aSource.
    position := 0.
    limit := aSource size
!
Tokenizer >> peekCode
    position >= limit ifTrue: [^ 0].
    ^ source at: position + 1
!
Tokenizer >> next
    "the next ExprToken: #number, #name, #open, #close, #op or #end"
    | c start value text |
    [position < limit and: [(source at: position + 1) isSeparator]] whileTrue: [position := position + 1].
    position >= limit ifTrue: [^ ExprToken kind: #end value: nil].
    c := source at: position + 1.
    c isDigit ifTrue: [
        value := 0.
        [self peekCode isDigit] whileTrue: [
            value := value * 10 + (self peekCode - $0).
            position := position + 1].
        ^ ExprToken kind: #number value: value].
    c isLetter ifTrue: [
        start := position + 1.
        [self peekCode isLetter] whileTrue: [position := position + 1].
        text := String new: position - start + 1.
        start to: position do: [:k | text at: k - start + 1 put: (source at: k)].
        ^ ExprToken kind: #name value: text].
    position := position + 1.
    c = $( ifTrue: [^ ExprToken kind: #open value: c].
    c = $) ifTrue: [^ ExprToken kind: #close value: c].
    ^ ExprToken kind: #op value: c
!

"---------------------------------------------------------------- the tree"
NumberNode class >> value: anInteger
    ^ self new setValue: anInteger
!
NumberNode >> setValue: anInteger
    value := anInteger
!
NumberNode >> emitOn: aCodeGen
    aCodeGen emitLiteral: value
!
VariableNode class >> name: aString
    ^ self new setName: aString
!
VariableNode >> setName: aString
    name := aString
!
VariableNode >> emitOn: aCodeGen
    aCodeGen emitVariable: name
!
BinaryNode class >> operator: aCode left: aNode right: anotherNode
    ^ self new setOperator: aCode left: aNode right: anotherNode
!
BinaryNode >> setOperator: aCode left: aNode right: anotherNode
    operator := aCode.
    left := aNode.
    right := anotherNode
!
BinaryNode >> emitOn: aCodeGen
    left emitOn: aCodeGen.
    right emitOn: aCodeGen.
    aCodeGen emitOperator: operator
!

"---------------------------------------------------------------- the parser: expr := term (+|- term)*, term := factor (* factor)*"
ExprParser class >> on: aTokenizer
    ^ self new setTokenizer: aTokenizer
!
ExprParser >> setTokenizer: aTokenizer
    tokenizer := aTokenizer.
    token := aTokenizer next
!
ExprParser >> advance
    token := tokenizer next
!
ExprParser >> parse
    | node |
    node := self parseExpression.
    token kind == #end ifFalse: [^ self syntaxError: token].
    ^ node
!
ExprParser >> parseExpression
    | node op |
    node := self parseTerm.
    [(token isOperator: $+) or: [token isOperator: $-]] whileTrue: [
        op := token value.
        self advance.
        node := BinaryNode operator: op left: node right: self parseTerm].
    ^ node
!
ExprParser >> parseTerm
    | node |
    node := self parseFactor.
    [token isOperator: $*] whileTrue: [
        self advance.
        node := BinaryNode operator: $* left: node right: self parseFactor].
    ^ node
!
ExprParser >> parseFactor
    | node |
    token kind == #number ifTrue: [
        node := NumberNode value: token value.
        self advance.
        ^ node].
    token kind == #name ifTrue: [
        node := VariableNode name: token value.
        self advance.
        ^ node].
    token kind == #open ifTrue: [
        self advance.
        node := self parseExpression.
        token kind == #close ifFalse: [^ self syntaxError: token].
        self advance.
        ^ node].
    ^ self syntaxError: token
!

"---------------------------------------------------------------- code generation: 0 end, 1 k push literal k, 2 k push variable k, 3 add, 4 sub, 5 mul"
CodeGen class >> new
    ^ self basicNew init
!
CodeGen >> init
    code := OrderedCollection new.
    literals := OrderedCollection new.
    variables := OrderedCollection new
!
CodeGen >> compile: aNode
    aNode emitOn: self.
    code add: 0.
    ^ ExprMethod code: code asArray literals: literals asArray variables: variables asArray
!
CodeGen >> emitLiteral: anInteger
    | k |
    k := literals indexOf: anInteger.
    k = 0 ifTrue: [literals add: anInteger. k := literals size].
    code add: 1; add: k
!
CodeGen >> emitVariable: aString
    | k |
    k := variables indexOf: aString.
    k = 0 ifTrue: [variables add: aString. k := variables size].
    code add: 2; add: k
!
CodeGen >> emitOperator: aCode
    aCode = $+ ifTrue: [^ code add: 3].
    aCode = $- ifTrue: [^ code add: 4].
    aCode = $* ifTrue: [^ code add: 5].
    ^ self unknownOperator: aCode
!
ExprMethod class >> code: codeArray literals: literalArray variables: nameArray
    ^ self new setCode: codeArray literals: literalArray variables: nameArray
!
ExprMethod >> setCode: codeArray literals: literalArray variables: nameArray
    code := codeArray.
    literals := literalArray.
    variables := nameArray
!
ExprMethod >> code
    ^ code
!
ExprMethod >> literals
    ^ literals
!
ExprMethod >> variables
    ^ variables
!

"---------------------------------------------------------------- the stack machine"
StackMachine >> run: anExprMethod with: values
    | code literals pc op a b |
    code := anExprMethod code.
    literals := anExprMethod literals.
    stack := OrderedCollection new.
    pc := 1.
    [(op := code at: pc) = 0] whileFalse: [
        op = 1
            ifTrue: [stack add: (literals at: (code at: pc + 1)). pc := pc + 2]
            ifFalse: [
                op = 2
                    ifTrue: [stack add: (values at: (code at: pc + 1)). pc := pc + 2]
                    ifFalse: [
                        b := stack removeLast.
                        a := stack removeLast.
                        op = 3 ifTrue: [stack add: a + b \\ 32749].
                        op = 4 ifTrue: [stack add: a - b \\ 32749].
                        op = 5 ifTrue: [stack add: a * b \\ 32749].
                        pc := pc + 1]]].
    ^ stack removeLast
!

"---------------------------------------------------------------- the expression generator"
ExprGenerator class >> seed: anInteger
    ^ self new setSeed: anInteger
!
ExprGenerator >> setSeed: anInteger
    seed := anInteger
!
ExprGenerator >> next: n
    "0 .. n - 1 (the ZX81's LCG: seed := (75 * seed + 74) mod 65537)"
    seed := seed * 75 + 74 \\ 65537.
    ^ seed \\ n
!
ExprGenerator >> expressionFrom: bindings depth: depth
    | ws |
    names := bindings.
    ws := WriteStream on: (String new: 32).
    self expression: depth on: ws.
    ^ ws contents
!
ExprGenerator >> expression: depth on: ws
    | r |
    r := self next: 8.
    (depth = 0 or: [r < 2]) ifTrue: [^ self leafOn: ws].
    r < 3 ifTrue: [
        ws nextPut: $(.
        self expression: depth - 1 on: ws.
        ws nextPut: $).
        ^ self].
    self expression: depth - 1 on: ws.
    ws space; nextPut: (#($+ $- $*) at: (self next: 3) + 1); space.
    self expression: depth - 1 on: ws
!
ExprGenerator >> leafOn: ws
    (self next: 2) = 0 ifTrue: [^ (self next: 1000) printOn: ws].
    ws nextPutAll: (names at: (self next: names size) + 1) key
!

"---------------------------------------------------------------- the benchmark"
CompilerBenchmark class >> readBindings
    "name value pairs from the source file, as Associations"
    | tokenizer token bindings key |
    bindings := OrderedCollection new.
    tokenizer := Tokenizer on: SourceFile new contents.
    [(token := tokenizer next) kind == #name] whileTrue: [
        key := token value.
        token := tokenizer next.
        token kind == #number ifFalse: [^ self syntaxError: token].
        bindings add: (Association key: key value: token value)].
    ^ bindings
!
CompilerBenchmark class >> valueOf: aString in: bindings run: i
    1 to: bindings size do: [:k |
        (bindings at: k) key = aString ifTrue: [^ (bindings at: k) value * i + k \\ 32749]].
    ^ self unknownVariable: aString
!
CompilerBenchmark class >> run: n
    | generator sum bindings source tree method values names |
    generator := ExprGenerator seed: 42.
    sum := 0.
    1 to: n do: [:i |
        bindings := self readBindings.
        source := generator expressionFrom: bindings depth: 4.
        tree := (ExprParser on: (Tokenizer on: source)) parse.
        method := CodeGen new compile: tree.
        LastMethod := method.
        names := method variables.
        values := Array new: names size.
        1 to: names size do: [:k | values at: k put: (self valueOf: (names at: k) in: bindings run: i)].
        sum := sum + (StackMachine new run: method with: values) \\ 1000003].
    ^ sum
!
`;

/**
 * The compiler benchmark's source "file" (read by SourceFile, primitives 120/121, 1-based): the
 * variable names and their base values. The interpreter must be given it as its foreign source
 * text (program.ts `sourceText('compiler')`).
 */
export const COMPILER_BENCH_FILE = 'alpha 3 beta 17 gamma 5 delta 11 x 2 y 9 count 4 total 8 rate 13 width 7\n';
