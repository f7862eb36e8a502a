; half-vector loads: ld_tnsr_low reads elements x .. x+31 of row 0 into
; lanes 0..31, ld_tnsr_high the same elements of row 1 into lanes 32..63
; (llvm.tpc.ld.tnsr.low / .high, the low load the high one's income)
target triple = "tpc"

define void @main() {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 32
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %c1 = insertelement <5 x i32> %c, i32 1, i32 1
  %lo = call <64 x float> @llvm.tpc.ld.tnsr.low.v64f32.i1(<5 x i32> %c, i8 0, i32 0, <64 x float> zeroinitializer, i1 true, i1 false)
  %v = call <64 x float> @llvm.tpc.ld.tnsr.high.v64f32.i1(<5 x i32> %c1, i8 0, i32 0, <64 x float> %lo, i1 true, i1 false)
  %x2 = mul i32 %i, 64
  %c2 = insertelement <5 x i32> zeroinitializer, i32 %x2, i32 0
  call void @llvm.tpc.st.tnsr.v64f32(<5 x i32> %c2, i8 1, <64 x float> %v, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare <64 x float> @llvm.tpc.ld.tnsr.low.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare <64 x float> @llvm.tpc.ld.tnsr.high.v64f32.i1(<5 x i32>, i8, i32, <64 x float>, i1, i1)
declare void @llvm.tpc.st.tnsr.v64f32(<5 x i32>, i8, <64 x float>, i32, i1, i1)
