/* liblua: compile a symbolic chunk of Lua source (the lexer and parser). */
#include "symtest.h"
#include "lua.h"
#include "lauxlib.h"

int main(void) {
  char chunk[8];
  symtest_make_symbolic(chunk, sizeof chunk, "chunk");
  lua_State *L = luaL_newstate();
  if (!L)
    return 2;
  int r = luaL_loadbufferx(L, chunk, sizeof chunk, "=harness", "t");
  lua_close(L);
  return r;
}
