" Modelica syntax for Neovim and Vim: keywords, predefined types and
" operators, comments, strings and numbers. Shipped with mofmu
" (editors/nvim/mofmu.lua puts this directory on 'runtimepath'); mofmu lsp's
" semantic tokens add what only the compiler knows (parameters, states,
" inputs and outputs, classes by kind) on Neovim 0.9 and later.

if exists("b:current_syntax")
  finish
endif

syn case match

syn keyword modelicaStructure   model block connector package record function type class operator
syn keyword modelicaStructure   end extends import within enumeration expandable
syn keyword modelicaPrefix      parameter constant input output flow stream discrete
syn keyword modelicaPrefix      partial encapsulated replaceable redeclare final inner outer
syn keyword modelicaPrefix      public protected each constrainedby impure pure
syn keyword modelicaSection     equation algorithm initial annotation external
syn keyword modelicaConditional if then else elseif when elsewhen
syn keyword modelicaRepeat      for in loop while
syn keyword modelicaStatement   return break connect der pre edge change reinit
syn keyword modelicaOperator    and or not
syn keyword modelicaBoolean     true false
syn keyword modelicaType        Real Integer Boolean String Clock
syn keyword modelicaBuiltin     time sample hold previous subSample superSample interval firstTick
syn keyword modelicaBuiltin     abs sign sqrt sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10
syn keyword modelicaBuiltin     min max sum product size ndims cross skew transpose identity zeros ones fill
syn keyword modelicaBuiltin     smooth noEvent semiLinear assert terminate

syn match   modelicaNumber      "\<\d\+\(\.\d*\)\=\([eE][-+]\=\d\+\)\=\>"
syn match   modelicaNumber      "\.\d\+\([eE][-+]\=\d\+\)\=\>"
syn region  modelicaString      start=+"+ skip=+\\\\\|\\"+ end=+"+ contains=@Spell
syn region  modelicaQuotedName  start=+'+ skip=+\\\\\|\\'+ end=+'+ oneline
syn keyword modelicaTodo        contained TODO FIXME XXX NOTE
syn match   modelicaComment     "//.*$" contains=modelicaTodo,@Spell
syn region  modelicaComment     start="/\*" end="\*/" contains=modelicaTodo,@Spell

hi def link modelicaStructure   Structure
hi def link modelicaPrefix      StorageClass
hi def link modelicaSection     Keyword
hi def link modelicaConditional Conditional
hi def link modelicaRepeat      Repeat
hi def link modelicaStatement   Statement
hi def link modelicaOperator    Operator
hi def link modelicaBoolean     Boolean
hi def link modelicaType        Type
hi def link modelicaBuiltin     Function
hi def link modelicaNumber      Number
hi def link modelicaString      String
hi def link modelicaQuotedName  Identifier
hi def link modelicaTodo        Todo
hi def link modelicaComment     Comment

let b:current_syntax = "modelica"
