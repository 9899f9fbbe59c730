-- Secret rotation (issue 29, section 4): the secret a rotation replaced stays valid, and signs
-- beside the new one, until previous_secret_expires_at.
ALTER TABLE "webhook_subscription" ADD COLUMN "previous_secret" TEXT;
ALTER TABLE "webhook_subscription" ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3);
