export { withArticle } from "./article.js";
export { closestWord, didYouMean, editDistance } from "./suggest.js";
