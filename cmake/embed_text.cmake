# Writes OUT, a C++ file defining lanescope::kBuiltinCatalogText from IN.
file(READ ${IN} content)
# Raw string literals have a length limit on some compilers; split in chunks.
string(LENGTH "${content}" len)
set(out "// Generated from ${IN}; do not edit.\nnamespace lanescope {\nextern const char* const kBuiltinCatalogText;\nconst char* const kBuiltinCatalogText =\n")
set(pos 0)
while(pos LESS len)
  string(SUBSTRING "${content}" ${pos} 8000 chunk)
  string(APPEND out "R\"lanescope(${chunk})lanescope\"\n")
  math(EXPR pos "${pos} + 8000")
endwhile()
string(APPEND out ";\n}\n")
file(WRITE ${OUT} "${out}")
