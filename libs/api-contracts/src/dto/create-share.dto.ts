import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsNullableString, IsNumberOrString, IsStringMap } from './validators.js';

/** The `share` object of POST /v2/shares (reference 3.4.1). Unknown keys are ignored, as in Manila. */
export class CreateShareDto {
  @IsString()
  @MaxLength(255)
  share_proto!: string;

  // Any other number or text is refused by the use case, in Manila's words.
  @IsOptional()
  @IsNumberOrString()
  size?: number | string;

  @IsOptional()
  @IsNullableString()
  name?: string | null;

  @IsOptional()
  @IsNullableString()
  display_name?: string | null;

  @IsOptional()
  @IsNullableString()
  description?: string | null;

  @IsOptional()
  @IsNullableString()
  display_description?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  share_type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  volume_type?: string;

  // Any text is looked up: one that names no snapshot is Manila's 404.
  @IsOptional()
  @IsString()
  snapshot_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  availability_zone?: string;

  @IsOptional()
  @IsString()
  share_network_id?: string;

  /** Read from 2.31, as Manila reads it: Hawser has no share groups, so none is ever found. */
  @IsOptional()
  @IsNullableString()
  share_group_id?: string | null;

  @IsOptional()
  @IsStringMap()
  metadata?: Record<string, string>;

  /** Read as Manila reads it, null refused too (`strictBoolean`), by the use case. */
  is_public?: unknown;

  @IsOptional()
  @IsObject()
  scheduler_hints?: Record<string, unknown>;
}

/** PUT /v2/shares/{id}: Manila reads only the display_* keys (name/description are ignored). */
export class UpdateShareDto {
  @IsOptional()
  @IsNullableString()
  display_name?: string | null;

  @IsOptional()
  @IsNullableString()
  display_description?: string | null;

  /** Read as Manila reads it, null refused too (`strictBoolean`), by the route. */
  is_public?: unknown;
}
