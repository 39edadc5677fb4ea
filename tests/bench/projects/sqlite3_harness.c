/* libsqlite3: is a symbolic text one or more complete SQL statements
 * (sqlite3_complete, SQLite's statement tokenizer)? */
#include "symtest.h"
#include "sqlite3.h"

int main(void) {
  char sql[10];
  symtest_make_symbolic(sql, sizeof sql, "sql");
  sql[sizeof sql - 1] = 0;
  return sqlite3_complete(sql);
}
