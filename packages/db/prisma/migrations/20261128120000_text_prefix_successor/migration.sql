-- A prefix search (`q[name]=Acme*`) as a range on lower(name): lower(name) ~>=~ p AND lower(name) ~<~
-- text_prefix_successor(p) holds exactly for the texts starting with p, since text_pattern_ops compares
-- bytes and UTF-8's byte order is its code points' order. As a range it is served by the
-- (environment_id, lower(name) text_pattern_ops) indexes in a generic plan too, where a LIKE pattern
-- that is a parameter is not: a prefix page can then be one prepared statement.
-- The successor is the prefix with its last character that is not U+10FFFF raised by one code point
-- (past the surrogates, which text never holds) and what follows it dropped, null for '' and for a
-- prefix of U+10FFFF alone, which the list compiler never asks for.
CREATE OR REPLACE FUNCTION text_prefix_successor(prefix text) RETURNS text
-- (Its body is one E'' string, semicolons written \073: the migration runner splits a script at each semicolon.)
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS E'DECLARE
  rest text := prefix\073
  code integer\073
BEGIN
  WHILE rest <> \'\' LOOP
    code := ascii(right(rest, 1))\073
    rest := left(rest, -1)\073
    IF code < 1114111 THEN
      code := code + 1\073
      IF code BETWEEN 55296 AND 57343 THEN
        code := 57344\073
      END IF\073
      RETURN rest || chr(code)\073
    END IF\073
  END LOOP\073
  RETURN NULL\073
END';
