import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsBooleanLike, IsNullableString, IsStringMap } from './validators.js';

/** The `share_type` (or `volume_type`) object of POST /v2/types. */
export class CreateShareTypeDto {
  @IsString()
  @MaxLength(255)
  name!: string;

  @IsOptional()
  @IsStringMap()
  extra_specs?: Record<string, string>;

  @IsOptional()
  @IsNullableString()
  description?: string | null;

  @IsOptional()
  @IsBooleanLike()
  'share_type_access:is_public'?: boolean | string;

  @IsOptional()
  @IsBooleanLike()
  'os-share-type-access:is_public'?: boolean | string;
}

export class ExtraSpecsDto {
  @IsStringMap()
  extra_specs!: Record<string, string>;
}
