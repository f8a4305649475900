-- AlterTable
ALTER TABLE "realms" ADD COLUMN     "inline_image_preview" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "inline_url_embed_preview" BOOLEAN NOT NULL DEFAULT false;
