import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsBooleanLike, IsNullableString } from './validators.js';

/** The `snapshot` object of POST /v2/snapshots (reference 3.6). */
export class CreateSnapshotDto {
  @IsString()
  share_id!: string;

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
  @IsBooleanLike()
  force?: boolean | string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;
}

/** The `snapshot` object of PUT /v2/snapshots/{id}: display_* names, or name/description. */
export class UpdateSnapshotDto {
  @IsOptional()
  @IsNullableString()
  @MaxLength(255)
  display_name?: string | null;

  @IsOptional()
  @IsNullableString()
  display_description?: string | null;

  @IsOptional()
  @IsNullableString()
  @MaxLength(255)
  name?: string | null;

  @IsOptional()
  @IsNullableString()
  description?: string | null;
}
