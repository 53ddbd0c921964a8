export {
  ERROR_CODES,
  type ErrorCode,
  type ErrorCodeInfo,
  type ErrorSide,
} from "./codes.js";
export { isOz0Error, Oz0Error, toOz0Error } from "./oz0-error.js";
export { type ErrorBody, type ErrorShape, errorShape } from "./shape.js";
