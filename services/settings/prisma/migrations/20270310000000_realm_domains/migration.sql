-- CreateTable
CREATE TABLE "realm_domains" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "domain" TEXT NOT NULL,
    "allow_subdomains" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "realm_domains_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "realm_domains_realm_id_domain_key" ON "realm_domains"("realm_id", "domain");
