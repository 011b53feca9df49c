/**
 * tinyBenchmarks (Squeak's Integer>>benchmark and Integer>>benchFib), in the source language
 * (issue 15; the language: compiler/parser.ts).
 *
 * Contract
 * - `SmallInteger >> benchmark` is Squeak's bytecode-heavy sieve as Squeak has it: `self`
 *   iterations over an 8190-element Array of flags, answering the count of primes of the last
 *   iteration. `SmallInteger >> benchFib` is Squeak's send-heavy recursive fib, answering the
 *   number of calls it made.
 * - Entries (class side, one argument, the run's size): `TinyBenchmarks loop: n` answers
 *   `n benchmark`; `TinyBenchmarks fib: n` answers `n benchFib`.
 * - Needs the kernel (smalltalk/kernel.ts): Array new:, atAllPut:, at:, at:put:.
 */
export const TINY_SOURCE = String.raw`
Object subclass: #TinyBenchmarks instanceVariableNames: '' !

SmallInteger >> benchmark
    "Handy bytecode-heavy benchmark (Squeak's Integer>>benchmark)"
    | size flags prime k count |
    size := 8190.
    1 to: self do:
        [:iter |
        count := 0.
        flags := (Array new: size) atAllPut: true.
        1 to: size do:
            [:i | (flags at: i) ifTrue:
                [prime := i + 1.
                k := i + prime.
                [k <= size] whileTrue:
                    [flags at: k put: false.
                    k := k + prime].
                count := count + 1]]].
    ^ count
!
SmallInteger >> benchFib
    "Handy send-heavy benchmark (Squeak's Integer>>benchFib)"
    ^ self < 2
        ifTrue: [1]
        ifFalse: [(self - 1) benchFib + (self - 2) benchFib + 1]
!
TinyBenchmarks class >> loop: n
    ^ n benchmark
!
TinyBenchmarks class >> fib: n
    ^ n benchFib
!
`;
