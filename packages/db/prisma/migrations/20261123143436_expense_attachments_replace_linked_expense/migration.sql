-- DropIndex
DROP INDEX "document_environment_id_linked_expense_id_idx";

-- AlterTable
ALTER TABLE "document" DROP COLUMN "linked_expense_id";
