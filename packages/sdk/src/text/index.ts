export { closestWord, didYouMean, editDistance } from "./suggest.js";
