"""Well-known existing models, methods, datasets and field acronyms.

A paper that *uses* GRPO, CLIP or Qwen3-Embedding does not introduce them: names.py drops
candidates found here. Matching is case-insensitive on the whole token, or on its family
prefix (`Qwen2.5-7B-Instruct` is a Qwen).
"""

from __future__ import annotations

import re

_KNOWN_WORDS = tuple(
    """
AI ML DL NLP CV RL IL LLM LLMs VLM VLMs MLLM MLLMs LVLM LVLMs LMM LMMs LM LMs SLM SLMs VLA VLAs
MLP MLPs CNN CNNs RNN RNNs LSTM LSTMs GRU GNN GNNs GCN GAT GIN ViT ViTs DiT DiTs VAE VAEs GAN GANs
NeRF NeRFs 3DGS SDF PINN PINNs FNO NTK KAN KANs MoE MoEs SAE SAEs
SGD Adam AdamW RMSProp Lion Muon Shampoo SAM LAMB LARS
PPO DPO GRPO TRPO SAC DDPG TD3 DQN RLHF RLAIF RLVR SFT KTO ORPO SimPO IPO REINFORCE RLOO DAPO GSPO
MCTS A2C A3C IQL CQL BC GAIL MDP MDPs POMDP POMDPs
CoT ToT RAG ICL KV LoRA QLoRA DoRA PEFT BitFit PTQ QAT GPTQ AWQ FP8 FP16 BF16 INT8 INT4
KL JS MMD OT EMA PCA SVD ICA LDA TSNE UMAP KNN SVM SVMs PAC VC NTK ReLU GELU SiLU SwiGLU RoPE ALiBi
PDE PDEs ODE ODEs SDE SDEs MCMC HMC SGLD VI ELBO EM ERM IRM DRO OOD ID IID SOTA API APIs GPU GPUs
CPU CPUs TPU TPUs FLOPs FLOP MSE MAE RMSE AUC AUROC ROC BLEU ROUGE METEOR FID IS LPIPS PSNR SSIM
CLIP SigLIP BLIP BLIP-2 ALIGN DINO DINOv2 DINOv3 MAE BEiT SimCLR MoCo BYOL SwAV JEPA I-JEPA V-JEPA
BERT RoBERTa ALBERT DeBERTa ELECTRA T5 mT5 Flan-T5 BART XLNet GPT GPT-2 GPT-3 GPT-3.5 GPT-4 GPT-4o
GPT-4V GPT-5 GPT-4.1 ChatGPT InstructGPT Codex o1 o3 o4-mini LLaMA Llama Vicuna Alpaca Mistral
Mixtral Qwen Gemma Gemini Claude PaLM Falcon Phi OPT BLOOM Pythia OLMo DeepSeek DeepSeek-R1
DeepSeek-V3 Yi InternLM InternVL LLaVA MiniGPT-4 Flamingo IDEFICS CogVLM Kimi GLM ChatGLM Baichuan
StarCoder CodeLlama Grok Mamba Mamba2 RWKV RetNet Hyena S4 Transformer Transformers Perceiver
ResNet ResNets ResNet-50 ResNet-18 VGG AlexNet Inception EfficientNet MobileNet ConvNeXt Swin
U-Net UNet YOLO DETR Mask-RCNN SAM2 SAM-2 Stable-Diffusion SDXL SD3 DALL-E Imagen Sora FLUX
DDPM DDIM EDM NCSN Whisper wav2vec HuBERT AlphaFold AlphaFold2 AlphaFold3 ESM ESM2 ESM-2
ImageNet ImageNet-1K ImageNet-21K CIFAR CIFAR-10 CIFAR-100 MNIST Fashion-MNIST SVHN CelebA LSUN
FFHQ COCO MS-COCO LAION LAION-5B LAION-2B Pascal VOC ADE20K Cityscapes KITTI nuScenes Waymo ScanNet
ShapeNet Objaverse Kinetics UCF101 HMDB51 Something-Something Ego4D WebVid MSR-VTT
GLUE SuperGLUE SQuAD MMLU MMLU-Pro GSM8K MATH MATH500 AIME AIME24 AIME25 AMC HumanEval MBPP
SWE-bench LiveCodeBench BigBench BBH HellaSwag ARC PIQA WinoGrande TruthfulQA GPQA TriviaQA
NaturalQuestions HotpotQA MuSiQue WikiText C4 RedPajama FineWeb Pile OpenWebText ShareGPT
AlpacaEval MT-Bench Arena-Hard IFEval LongBench RULER MMMU MathVista ChartQA DocVQA TextVQA VQA
VQAv2 GQA OK-VQA ScienceQA POPE MME MMBench SEED-Bench Video-MME D4RL MuJoCo Atari Procgen
Minecraft MiniGrid Meta-World RLBench LIBERO CALVIN OGB Cora Citeseer PubMed QM9 ZINC MD17 PDEBench
WebArena OSWorld AgentBench ALFWorld WebShop BabyAI TextWorld HotPotQA
HuggingFace PyTorch JAX TensorFlow GitHub OpenAI Anthropic Google Meta Microsoft NVIDIA
LLM-as-a-judge Chain-of-Thought Mixture-of-Experts
FL PFL HFL MARL HRL NAS SR VSR ISR TTS ASR OCR QA VQA KG KGs KGQA GUI GUIs EEG fMRI MRI CT PET
SSL TTA DA UDA DG CL FSL ZSL CF RS MT NMT PLM NER SGG OVD VOS MOT SOT HOI AD VLN EQA PRM PRMs
ORM RM RMs LTR IR ANN MIPS MILP LP QP SAT TSP VRP CO GP GPs BO HPO AutoML SMoE KD SB OT EOT
DM DMs LDM LDMs VAR AR NTP MTP SSM SSMs TS LTSF TSF CoT RLHF RLVR LRM LRMs MAS MCP VQ VQ-VAE
RVQ FSQ NLI SQL API SDF CAD SLAM SfM MVS NVS IQA VAD ReID SNN SNNs BNN BNNs INR INRs DEQ GFlowNet
GFlowNets SBI ABC SMC HMM CRF LQR MPC PID RRT DETR ViT ViTs SAM CNN CNNs IoU mIoU mAP PSNR SSIM
NeurIPS ICLR ICML CVPR ACL EMNLP AAAI CUDA BP GCRL OCRL MBRL RAG-based SGD-based LiDAR RGB RGB-D
""".split()
)
KNOWN_NAMES = frozenset(w.lower() for w in _KNOWN_WORDS)
_KNOWN_EXACT = frozenset(_KNOWN_WORDS)

# Model families: any token starting with these (plus version/size suffixes) is an existing model.
_FAMILY = re.compile(
    r"^(?:gpt|llama|qwen|mistral|mixtral|gemma|gemini|claude|deepseek|phi|opt|pythia|olmo|falcon|"
    r"vicuna|llava|internvl|internlm|intern|glm|chatglm|baichuan|yi|t5|flan|bert|roberta|deberta|"
    r"clip|siglip|blip|dino|vit|resnet|swin|convnext|efficientnet|stable-?diffusion|sdxl|sd|flux|"
    r"dall-?e|imagen|whisper|wav2vec|esm|alphafold|mamba|rwkv|starcoder|codellama|code-?llama|"
    r"kimi|grok|o[134]|minicpm|smollm|granite|command-?r|nemotron|cogvlm|idefics|molmo|pixtral|"
    r"sam|cifar|imagenet|mmlu|gsm|math|aime|humaneval|mbpp|swe-?bench|coco|laion|gpt4|gpt-4)"
    r"(?:[-_.]\w[\w.-]*|v?\d[\w.-]*)?$",
    re.I,
)


def _listed(token: str) -> bool:
    forms = [token]
    if len(token) > 2 and token.endswith("s"):
        forms.append(token[:-1])
    for form in forms:
        if form in _KNOWN_EXACT:
            return True
        # "llama" and "Llama" are LLaMA; but a coinage with its own capitals (CoRA, ROPES)
        # is not the listed Cora or RoPE
        if (form.islower() or form == form.capitalize()) and form.lower() in KNOWN_NAMES:
            return True
    return False


def is_known(token: str) -> bool:
    """True for an existing thing a paper merely uses (GRPO, CLIP, Qwen3-Embedding, Transformers)."""
    token = token.strip(".,;:")
    return _listed(token) or bool(_FAMILY.match(token.lower()))


def is_known_exact(token: str) -> bool:
    """True for a listed name itself (not a compound such as `SD3.5-Flash` built on one)."""
    return _listed(token.strip(".,;:"))
