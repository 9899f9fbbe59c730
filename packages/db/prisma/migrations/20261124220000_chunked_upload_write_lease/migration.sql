-- A chunk PUT holds a short lease on its upload while it writes the bytes, instead of a row lock
-- in a transaction: two statements per chunk instead of five (issue 15, uploads).
ALTER TABLE "chunked_upload" ADD COLUMN "write_lease" TEXT,
ADD COLUMN "write_lease_until" TIMESTAMPTZ(3);
