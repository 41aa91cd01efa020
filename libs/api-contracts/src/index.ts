export * from './views/view-context.js';
export * from './views/share.view.js';
export * from './views/share-type.view.js';
export * from './dto/validators.js';
export * from './dto/create-share.dto.js';
export * from './dto/share-type.dto.js';
export * from './views/quota-set.view.js';
export * from './views/message.view.js';
