/**
 * The VM's kernel classes, in the source language (issue 15; the language: compiler/parser.ts).
 *
 * Contract
 * - Defines the classes the image builder relies on, with exactly these names: Object (the
 *   root), Class (the class side of every class inherits from it), Metaclass, UndefinedObject,
 *   Boolean, True, False, SmallInteger, Array (#indexable), String (#bytes), Symbol (#bytes,
 *   under String), Association (key value), MethodDictionary (#indexable), CompiledMethod,
 *   MethodContext; plus ArrayedCollection (Array's and String's shared protocol),
 *   OrderedCollection, ReadStream, WriteStream and SourceFile (the foreign "file" of the
 *   compiler benchmark: primitives 120/121 run on the main core).
 * - Class's instance variables mirror the class object's slots (CLS_SUPERCLASS, CLS_METHODS,
 *   CLS_SPEC, CLS_NAME in format.ts), so `Class >> name` reads CLS_NAME.
 * - A primitive method's fallback code (run when the primitive fails) sends
 *   #primitiveFailed: with the selector as argument; nothing implements it, so the interpreter
 *   stops with doesNotUnderstand #primitiveFailed: (the argument names the failed selector).
 * - No blocks beyond the inlined ones exist, so there is no do:/collect:; loops are to:do:.
 */
export const KERNEL_SOURCE = String.raw`
"---------------------------------------------------------------- the class graph"
nil subclass: #Object instanceVariableNames: '' !
Object subclass: #Class instanceVariableNames: 'superclass methodDict format name' !
Class subclass: #Metaclass instanceVariableNames: '' !
Object subclass: #UndefinedObject instanceVariableNames: '' !
Object subclass: #Boolean instanceVariableNames: '' !
Boolean subclass: #True instanceVariableNames: '' !
Boolean subclass: #False instanceVariableNames: '' !
Object subclass: #SmallInteger instanceVariableNames: '' !
Object subclass: #ArrayedCollection instanceVariableNames: '' !
ArrayedCollection subclass: #Array instanceVariableNames: '' kind: #indexable !
ArrayedCollection subclass: #String instanceVariableNames: '' kind: #bytes !
String subclass: #Symbol instanceVariableNames: '' kind: #bytes !
Object subclass: #Association instanceVariableNames: 'key value' !
Object subclass: #MethodDictionary instanceVariableNames: '' kind: #indexable !
"a CompiledMethod's layout is the VM's own (format.ts KIND_METHOD): header, literals, bytecodes"
Object subclass: #CompiledMethod instanceVariableNames: '' kind: #bytes !
"format.ts CTX_*: the fixed slots, then args, temps and the stack"
Object subclass: #MethodContext instanceVariableNames: 'sender pc stackp method receiver' kind: #indexable !
Object subclass: #OrderedCollection instanceVariableNames: 'array tally' !
Object subclass: #ReadStream instanceVariableNames: 'collection position limit' !
Object subclass: #WriteStream instanceVariableNames: 'collection position' !
Object subclass: #SourceFile instanceVariableNames: '' !

"---------------------------------------------------------------- Object"
Object >> == anObject
    <primitive: 110>
    ^ self primitiveFailed: #==
!
Object >> class
    <primitive: 111>
    ^ self primitiveFailed: #class
!
Object >> = anObject
    ^ self == anObject
!
Object >> ~= anObject
    ^ (self = anObject) not
!
Object >> ~~ anObject
    ^ (self == anObject) not
!
Object >> isNil
    ^ false
!
Object >> notNil
    ^ true
!
Object >> yourself
    ^ self
!
Object >> isString
    ^ false
!
Object >> isSymbol
    ^ false
!
Object >> isInteger
    ^ false
!

"---------------------------------------------------------------- classes"
Class >> new
    <primitive: 70>
    ^ self primitiveFailed: #new
!
Class >> new: size
    <primitive: 71>
    ^ self primitiveFailed: #new:
!
Class >> basicNew
    <primitive: 70>
    ^ self primitiveFailed: #basicNew
!
Class >> basicNew: size
    <primitive: 71>
    ^ self primitiveFailed: #basicNew:
!
Class >> name
    ^ name
!
Class >> superclass
    ^ superclass
!

"---------------------------------------------------------------- nil and Booleans"
UndefinedObject >> isNil
    ^ true
!
UndefinedObject >> notNil
    ^ false
!
True >> & aBoolean
    ^ aBoolean
!
True >> | aBoolean
    ^ true
!
True >> not
    ^ false
!
False >> & aBoolean
    ^ false
!
False >> | aBoolean
    ^ aBoolean
!
False >> not
    ^ true
!

"---------------------------------------------------------------- SmallInteger"
SmallInteger >> + aNumber
    <primitive: 1>
    ^ self primitiveFailed: #+
!
SmallInteger >> - aNumber
    <primitive: 2>
    ^ self primitiveFailed: #-
!
SmallInteger >> < aNumber
    <primitive: 3>
    ^ self primitiveFailed: #<
!
SmallInteger >> > aNumber
    <primitive: 4>
    ^ self primitiveFailed: #>
!
SmallInteger >> <= aNumber
    <primitive: 5>
    ^ self primitiveFailed: #<=
!
SmallInteger >> >= aNumber
    <primitive: 6>
    ^ self primitiveFailed: #>=
!
SmallInteger >> = aNumber
    <primitive: 7>
    ^ false
!
SmallInteger >> ~= aNumber
    <primitive: 8>
    ^ true
!
SmallInteger >> * aNumber
    <primitive: 9>
    ^ self primitiveFailed: #*
!
SmallInteger >> / aNumber
    <primitive: 10>
    ^ self primitiveFailed: #/
!
SmallInteger >> \\ aNumber
    <primitive: 11>
    ^ self primitiveFailed: #\\
!
SmallInteger >> // aNumber
    <primitive: 12>
    ^ self primitiveFailed: #//
!
SmallInteger >> bitAnd: aNumber
    <primitive: 14>
    ^ self primitiveFailed: #bitAnd:
!
SmallInteger >> bitOr: aNumber
    <primitive: 15>
    ^ self primitiveFailed: #bitOr:
!
SmallInteger >> bitShift: aNumber
    <primitive: 17>
    ^ self primitiveFailed: #bitShift:
!
SmallInteger >> isInteger
    ^ true
!
SmallInteger >> negated
    ^ 0 - self
!
SmallInteger >> abs
    self < 0 ifTrue: [^ 0 - self].
    ^ self
!
SmallInteger >> max: aNumber
    self > aNumber ifTrue: [^ self].
    ^ aNumber
!
SmallInteger >> min: aNumber
    self < aNumber ifTrue: [^ self].
    ^ aNumber
!
SmallInteger >> between: min and: max
    ^ self >= min and: [self <= max]
!
SmallInteger >> isDigit
    "the receiver as a character code"
    ^ self >= $0 and: [self <= $9]
!
SmallInteger >> isLetter
    "the receiver as a character code"
    ^ (self >= $a and: [self <= $z]) or: [self >= $A and: [self <= $Z]]
!
SmallInteger >> isSeparator
    "the receiver as a character code: space, tab, cr, lf"
    ^ self = 32 or: [self = 9 or: [self = 13 or: [self = 10]]]
!
SmallInteger >> printOn: aStream
    "decimal digits onto aStream (characters are SmallInteger codes)"
    self < 0 ifTrue: [aStream nextPut: $-. ^ (0 - self) printOn: aStream].
    self >= 10 ifTrue: [self // 10 printOn: aStream].
    aStream nextPut: $0 + (self \\ 10)
!
SmallInteger >> printString
    | ws |
    ws := WriteStream on: (String new: 12).
    self printOn: ws.
    ^ ws contents
!

"---------------------------------------------------------------- Array, String, Symbol"
ArrayedCollection class >> new
    ^ self new: 0
!
ArrayedCollection >> isEmpty
    ^ self size = 0
!
ArrayedCollection >> notEmpty
    ^ self size > 0
!
ArrayedCollection >> atAllPut: anObject
    1 to: self size do: [:i | self at: i put: anObject]
!
ArrayedCollection >> indexOf: anObject
    1 to: self size do: [:i | (self at: i) = anObject ifTrue: [^ i]].
    ^ 0
!
ArrayedCollection >> includes: anObject
    ^ (self indexOf: anObject) > 0
!
ArrayedCollection >> first
    ^ self at: 1
!
ArrayedCollection >> last
    ^ self at: self size
!
ArrayedCollection >> copyFrom: start to: stop
    | result |
    result := self class new: stop - start + 1.
    start to: stop do: [:i | result at: i - start + 1 put: (self at: i)].
    ^ result
!
ArrayedCollection >> copyWith: anObject
    | result |
    result := self class new: self size + 1.
    1 to: self size do: [:i | result at: i put: (self at: i)].
    result at: result size put: anObject.
    ^ result
!
ArrayedCollection >> , aCollection
    | result n |
    n := self size.
    result := self class new: n + aCollection size.
    1 to: n do: [:i | result at: i put: (self at: i)].
    1 to: aCollection size do: [:i | result at: n + i put: (aCollection at: i)].
    ^ result
!
ArrayedCollection >> = aCollection
    self == aCollection ifTrue: [^ true].
    self class == aCollection class ifFalse: [^ false].
    self size = aCollection size ifFalse: [^ false].
    1 to: self size do: [:i | (self at: i) = (aCollection at: i) ifFalse: [^ false]].
    ^ true
!
Array >> at: index
    <primitive: 60>
    ^ self primitiveFailed: #at:
!
Array >> at: index put: anObject
    <primitive: 61>
    ^ self primitiveFailed: #at:put:
!
Array >> size
    <primitive: 62>
    ^ self primitiveFailed: #size
!
String >> at: index
    <primitive: 63>
    ^ self primitiveFailed: #at:
!
String >> at: index put: aCode
    <primitive: 64>
    ^ self primitiveFailed: #at:put:
!
String >> size
    <primitive: 62>
    ^ self primitiveFailed: #size
!
String >> isString
    ^ true
!
String >> = aString
    "equal characters; never equal to a Symbol (ArrayedCollection>>= compares the classes)"
    aString isString ifFalse: [^ false].
    ^ super = aString
!
String >> < aString
    "lexicographic order of the character codes"
    | n |
    n := self size min: aString size.
    1 to: n do: [:i |
        (self at: i) = (aString at: i) ifFalse: [^ (self at: i) < (aString at: i)]].
    ^ self size < aString size
!
String >> asNumber
    "the decimal SmallInteger the receiver spells (digits only)"
    | n |
    n := 0.
    1 to: self size do: [:i | n := n * 10 + ((self at: i) - $0)].
    ^ n
!
Symbol >> = anObject
    ^ self == anObject
!
Symbol >> isSymbol
    ^ true
!
Symbol >> at: index put: aCode
    "Symbols are immutable"
    ^ self primitiveFailed: #at:put:
!

"---------------------------------------------------------------- Association"
Association class >> key: aKey value: aValue
    ^ self new setKey: aKey value: aValue
!
Association >> setKey: aKey value: aValue
    key := aKey.
    value := aValue
!
Association >> key
    ^ key
!
Association >> value
    ^ value
!
Association >> value: anObject
    value := anObject
!

"---------------------------------------------------------------- OrderedCollection"
OrderedCollection class >> new
    ^ self new: 8
!
OrderedCollection class >> new: capacity
    ^ self basicNew setCapacity: capacity
!
OrderedCollection >> setCapacity: capacity
    array := Array new: (capacity max: 1).
    tally := 0
!
OrderedCollection >> size
    ^ tally
!
OrderedCollection >> isEmpty
    ^ tally = 0
!
OrderedCollection >> notEmpty
    ^ tally > 0
!
OrderedCollection >> at: index
    (index between: 1 and: tally) ifFalse: [^ self errorIndex: index].
    ^ array at: index
!
OrderedCollection >> at: index put: anObject
    (index between: 1 and: tally) ifFalse: [^ self errorIndex: index].
    ^ array at: index put: anObject
!
OrderedCollection >> add: anObject
    | bigger |
    tally = array size ifTrue: [
        bigger := Array new: tally * 2.
        1 to: tally do: [:i | bigger at: i put: (array at: i)].
        array := bigger].
    tally := tally + 1.
    array at: tally put: anObject.
    ^ anObject
!
OrderedCollection >> addLast: anObject
    ^ self add: anObject
!
OrderedCollection >> removeLast
    | last |
    tally = 0 ifTrue: [^ self errorEmpty].
    last := array at: tally.
    array at: tally put: nil.
    tally := tally - 1.
    ^ last
!
OrderedCollection >> last
    tally = 0 ifTrue: [^ self errorEmpty].
    ^ array at: tally
!
OrderedCollection >> indexOf: anObject
    1 to: tally do: [:i | (array at: i) = anObject ifTrue: [^ i]].
    ^ 0
!
OrderedCollection >> asArray
    | result |
    result := Array new: tally.
    1 to: tally do: [:i | result at: i put: (array at: i)].
    ^ result
!

"---------------------------------------------------------------- streams"
ReadStream class >> on: aCollection
    ^ self basicNew setOn: aCollection
!
ReadStream >> setOn: aCollection
    collection := aCollection.
    position := 0.
    limit := aCollection size
!
ReadStream >> atEnd
    ^ position >= limit
!
ReadStream >> next
    position >= limit ifTrue: [^ nil].
    position := position + 1.
    ^ collection at: position
!
ReadStream >> peek
    position >= limit ifTrue: [^ nil].
    ^ collection at: position + 1
!
ReadStream >> skip: n
    position := position + n
!
ReadStream >> position
    ^ position
!
WriteStream class >> on: aCollection
    ^ self basicNew setOn: aCollection
!
WriteStream >> setOn: aCollection
    collection := aCollection.
    position := 0
!
WriteStream >> nextPut: anObject
    | bigger |
    position = collection size ifTrue: [
        bigger := collection class new: position * 2 + 8.
        1 to: position do: [:i | bigger at: i put: (collection at: i)].
        collection := bigger].
    position := position + 1.
    collection at: position put: anObject.
    ^ anObject
!
WriteStream >> nextPutAll: aCollection
    1 to: aCollection size do: [:i | self nextPut: (aCollection at: i)].
    ^ aCollection
!
WriteStream >> space
    self nextPut: 32
!
WriteStream >> print: anInteger
    anInteger printOn: self
!
WriteStream >> contents
    ^ collection copyFrom: 1 to: position
!
WriteStream >> size
    ^ position
!

"---------------------------------------------------------------- the foreign source file (main-core primitives)"
SourceFile >> at: index
    "the character code at index (1-based) of the run's source text"
    <primitive: 120>
    ^ self primitiveFailed: #sourceAt:
!
SourceFile >> size
    <primitive: 121>
    ^ self primitiveFailed: #sourceSize
!
SourceFile >> contents
    "the whole text as a String: one foreign call per character, as a per-character read of a file"
    | n text |
    n := self size.
    text := String new: n.
    1 to: n do: [:i | text at: i put: (self at: i)].
    ^ text
!
`;
